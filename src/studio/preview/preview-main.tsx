import { Component, StrictMode, useState, type MouseEvent, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { brandPath, matchBrandRoute, NEW_REQUEST_QUERY } from '../../core/brands';
import { AssetsContext } from '../../web/app/brands';
import { CountriesContext } from '../../web/app/countries';
import { SendingContext } from '../../web/form/sending';
import { FormSourceContext } from '../../web/form/validation';
import { TextsContext } from '../../web/i18n';
import { BrandPage } from '../../web/pages/brand-page';
import { ProjectLayout } from '../project/layout';
import { studioT, type StudioLanguage } from '../studio-texts';
import { previewData, type PreviewData } from './preview-data';
import type { PreviewAnswer, PreviewReady, PreviewRequest, PreviewRoute } from './preview-message';
import { previewSending } from './preview-sending';
import '../../web/styles.css';
import './preview.css';

const root = createRoot(document.getElementById('root')!);
const theme = new CSSStyleSheet();
// A constructed sheet, not a <style> element: the CSP allows no inline styles, here as on the portal.
document.adoptedStyleSheets = [theme];

/** The page at the route in the frame's own router (its language buttons move it), or why there is none. */
function PreviewPage({ data, language }: { data: PreviewData; language: StudioLanguage }) {
  const route = matchBrandRoute(useLocation().pathname, data.brands, data.texts.codes);
  if (!route) return <p className="preview-none">{studioT(language)('preview.noPage')}</p>;
  return <BrandPage brand={route.brand} locale={route.locale} country={route.country} />;
}

/** The page as customers get it: the portal's own components, over the data being edited, sending nothing. */
function Preview({ data, route, language }: { data: PreviewData; route: PreviewRoute; language: StudioLanguage }) {
  // The confirmation's "new request" link leads back to an empty form, as on the portal.
  const [round, setRound] = useState(0);
  const stayInFrame = (event: MouseEvent<HTMLDivElement>) => {
    const link = (event.target as Element).closest('a[href]');
    if (!link) return;
    event.preventDefault();
    if (new URL(link.getAttribute('href')!, location.href).searchParams.has(NEW_REQUEST_QUERY)) setRound(round + 1);
  };
  return (
    <div onClickCapture={stayInFrame}>
      <AssetsContext.Provider value={data.assetUrl}>
        <TextsContext.Provider value={data.texts}>
          <CountriesContext.Provider value={data.countries}>
            <FormSourceContext.Provider value={data.loadForm}>
              <SendingContext.Provider value={previewSending}>
                <MemoryRouter key={`${brandPath(route.brand, route.locale, route.country)}#${round}`} initialEntries={[brandPath(route.brand, route.locale, route.country)]}>
                  <PreviewPage data={data} language={language} />
                </MemoryRouter>
              </SendingContext.Provider>
            </FormSourceContext.Provider>
          </CountriesContext.Provider>
        </TextsContext.Provider>
      </AssetsContext.Provider>
    </div>
  );
}

interface BoundaryProps {
  children: ReactNode;
  language: StudioLanguage;
  /** A new request: the page is tried again. */
  attempt: number;
  onError(reason: string): void;
}

/** A page the edited data breaks while rendering: the studio's findings say why; the frame says so instead of going blank. */
class PageBoundary extends Component<BoundaryProps, { failed: boolean; attempt: number }> {
  state = { failed: false, attempt: this.props.attempt };
  static getDerivedStateFromProps(props: BoundaryProps, state: { failed: boolean; attempt: number }) {
    return props.attempt === state.attempt ? null : { failed: false, attempt: props.attempt };
  }
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(error: unknown) {
    this.props.onError(error instanceof Error ? error.message : String(error));
  }
  render() {
    return this.state.failed ? <p className="preview-none">{studioT(this.props.language)('preview.broken')}</p> : this.props.children;
  }
}

let shown: PreviewData | undefined;

function show(request: PreviewRequest): void {
  let stale: string | undefined;
  try {
    shown = previewData(request.files, new ProjectLayout(request.layout));
  } catch (error) {
    stale = error instanceof Error ? error.message : String(error);
  }
  if (shown) {
    const data = shown;
    theme.replaceSync(data.themeCss);
    flushSync(() =>
      root.render(
        <StrictMode>
          <PageBoundary attempt={request.sentAt} language={request.language} onError={(reason) => (stale = reason)}>
            <Preview data={data} route={request.route} language={request.language} />
          </PageBoundary>
        </StrictMode>,
      ),
    );
  }
  const answer: PreviewAnswer = { kind: 'portal-preview-shown', sentAt: request.sentAt, shownAt: Date.now(), ...(stale ? { stale } : {}) };
  parent.postMessage(answer, location.origin);
}

window.addEventListener('message', (event: MessageEvent<PreviewRequest>) => {
  // Only the studio that holds this frame speaks to it.
  if (event.origin !== location.origin || event.source !== parent || event.data?.kind !== 'portal-preview') return;
  show(event.data);
});

parent.postMessage({ kind: 'portal-preview-ready' } satisfies PreviewReady, location.origin);
