import type { Translate } from '../../../core/texts';
import type { MouseEvent } from 'react';
import type { FieldErrors } from '../../../core/field-errors';
import { untagged } from '../../i18n/tagged-text';
import { fieldId } from '../form-context';

interface ErrorSummaryProps {
  errors: FieldErrors;
  order: readonly string[];
  t: Translate;
}

function focusField(event: MouseEvent<HTMLAnchorElement>, name: string): void {
  const target = document.getElementById(fieldId(name));
  if (!target) return;
  event.preventDefault();
  target.scrollIntoView?.({ block: 'center' });
  target.focus();
}

/** Extended form: shown while any field shows an error; each entry links to (and focuses) its field. */
export function ErrorSummary({ errors, order, t }: ErrorSummaryProps) {
  const names = order.filter((name) => errors[name]?.length);
  if (!names.length) return null;
  return (
    <section className="error-summary" aria-labelledby="error-summary-title">
      <h2 className="error-summary__title" id="error-summary-title">
        {t('form.invalidFields')}
      </h2>
      <ul className="error-summary__list">
        {names.map((name) => (
          <li key={name}>
            <a href={`#${fieldId(name)}`} onClick={(event) => focusField(event, name)}>
              {untagged(t([`fieldsShort.${name}`, `fields.${name}`]))}: {errors[name][0]}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
