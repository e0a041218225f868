import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { Locale } from '../../../src/core/types';
import { LocaleContext } from '../../../src/web/i18n';

function LocationProbe() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

/** Renders header or footer as BrandPage does: inside a router and the route's locale. */
export function renderChrome(ui: ReactElement, locale: Locale, path = '/') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <LocaleContext.Provider value={locale}>
        {ui}
        <LocationProbe />
      </LocaleContext.Provider>
    </MemoryRouter>,
  );
}
