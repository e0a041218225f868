import { useContext, useEffect, useRef, useState } from 'react';
import { brandLocales } from '../../core/locale';
import { jsonOf, languagesOf } from '../editors/project-facts';
import { useLayout, type ProjectLayout } from '../project/layout';
import type { FileMap } from '../project/project-files';
import { StudioLanguageContext, useStudioT } from '../studio-texts';
import type { PreviewAnswer, PreviewReady, PreviewRequest, PreviewRoute } from './preview-message';

/** The two widths a brand owner checks: a phone's and a desktop's (CSS pixels). */
const WIDTHS = { phone: 375, desktop: 1280 } as const;
type Width = keyof typeof WIDTHS;

/** After the last edit, before the frame is sent the files: a burst of keystrokes makes one page. */
const SEND_AFTER_MS = 40;

const list = (value: unknown): string[] | undefined => (Array.isArray(value) ? value.map(String) : undefined);

/** The brand's languages and countries as its file says them now. */
function pagesOf(files: FileMap, layout: ProjectLayout, brand: string): { locales: string[]; countries: string[] } {
  const data = jsonOf(files, layout.brandFile(brand)) as Record<string, unknown> | undefined;
  return { locales: brandLocales({ locales: list(data?.locales) }).slice(), countries: list(data?.countries) ?? [] };
}

/** One of `choices`, keeping `value` while it is one of them. */
const oneOf = (value: string, choices: readonly string[]) => (choices.includes(value) ? value : (choices[0] ?? ''));

/**
 * The brand's page beside the editors, as customers get it (the portal's own components in a frame,
 * sized as a phone or a desktop), in any of the brand's languages and countries, following every
 * edit; sending is off.
 */
export function PreviewPane({ files, openPath }: { files: FileMap; openPath: string }) {
  const t = useStudioT();
  const layout = useLayout();
  const language = useContext(StudioLanguageContext);
  const frame = useRef<HTMLIFrameElement>(null);
  // Counts the frame's starts: each (the first, and any reload, as `npm run dev` does) is sent the files afresh.
  const [ready, setReady] = useState(0);
  const [answer, setAnswer] = useState<PreviewAnswer | undefined>();
  const [width, setWidth] = useState<Width>('phone');
  const brands = layout.brandIds(files);
  const [chosen, setChosen] = useState({ brand: layout.kind(openPath) === 'brand' ? layout.stem(openPath) : '', locale: '', country: '' });
  // Opening a brand's file shows its page.
  useEffect(() => {
    if (layout.kind(openPath) === 'brand') setChosen((c) => ({ ...c, brand: layout.stem(openPath) }));
  }, [openPath, layout]);
  const brand = oneOf(chosen.brand, brands);
  const pages = pagesOf(files, layout, brand);
  const route: PreviewRoute = { brand, locale: oneOf(chosen.locale, pages.locales), country: oneOf(chosen.country, pages.countries) };
  const names = languagesOf(files, layout);

  useEffect(() => {
    const listen = (event: MessageEvent<PreviewAnswer | PreviewReady>) => {
      if (event.source !== frame.current?.contentWindow) return;
      if (event.data?.kind === 'portal-preview-ready') setReady((starts) => starts + 1);
      if (event.data?.kind === 'portal-preview-shown') setAnswer(event.data);
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, []);

  useEffect(() => {
    if (!ready || !route.brand) return;
    const timer = setTimeout(() => {
      const request: PreviewRequest = { kind: 'portal-preview', files: Object.fromEntries(files), layout: layout.folders, route, language, sentAt: Date.now() };
      frame.current?.contentWindow?.postMessage(request, location.origin);
    }, SEND_AFTER_MS);
    return () => clearTimeout(timer);
    // The route's parts stand for the route (a new object each render).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, files, layout, route.brand, route.locale, route.country, language]);

  const pick = (part: keyof typeof chosen) => (value: string) => setChosen({ ...chosen, brand, [part]: value });
  return (
    <aside className="preview-pane" aria-labelledby="preview-heading">
      <h2 id="preview-heading">{t('preview.heading')}</h2>
      <p className="studio-field__hint">{t('preview.sendingOff')}</p>
      <div className="preview-pane__controls">
        <Select label={t('preview.brand')} value={brand} choices={brands.map((id) => [id, id])} onChange={pick('brand')} />
        <Select label={t('preview.language')} value={route.locale} choices={pages.locales.map((code) => [code, `${names.get(code) ?? code} (${code})`])} onChange={pick('locale')} />
        <Select label={t('preview.country')} value={route.country} choices={pages.countries.map((code) => [code, code.toUpperCase()])} onChange={pick('country')} />
        <fieldset className="preview-pane__widths">
          <legend>{t('preview.width')}</legend>
          {(Object.keys(WIDTHS) as Width[]).map((w) => (
            <label key={w}>
              <input type="radio" name="preview-width" checked={width === w} onChange={() => setWidth(w)} /> {t(`preview.${w}`, { width: WIDTHS[w] })}
            </label>
          ))}
        </fieldset>
      </div>
      <p className="preview-pane__status" role="status">
        {answer?.stale ? t('preview.stale') : answer ? t('preview.shown', { ms: Math.max(0, answer.shownAt - answer.sentAt) }) : t('preview.loading')}
      </p>
      <div className={`preview-pane__frame preview-pane__frame--${width}`}>
        <iframe ref={frame} src="preview.html" title={t('preview.frameTitle', { page: `/${route.brand}/${route.locale}/${route.country}` })} />
      </div>
    </aside>
  );
}

function Select({ label, value, choices, onChange }: { label: string; value: string; choices: [string, string][]; onChange(value: string): void }) {
  return (
    <label className="preview-pane__select">
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {choices.map(([choice, text]) => (
          <option key={choice} value={choice}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}
