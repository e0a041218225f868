import { useMemo, useState } from 'react';
import { FALLBACK_LOCALE } from '../../core/texts';
import type { FileContent, FileMap } from '../project/project-files';
import { useLayout } from '../project/layout';
import { useStudioT } from '../studio-texts';
import { setAt } from './json-edits';
import { jsonOf, languagesOf } from './project-facts';

/** Every key path ending in a text, skipping what editors read ($schema, $comment). */
function textPaths(tree: unknown, prefix: string[] = []): string[][] {
  if (typeof tree === 'string') return [prefix];
  if (typeof tree !== 'object' || tree === null || Array.isArray(tree)) return [];
  return Object.entries(tree).flatMap(([key, value]) => (key.startsWith('$') ? [] : textPaths(value, [...prefix, key])));
}

function textAtPath(tree: unknown, path: readonly string[]): string | undefined {
  let node = tree;
  for (const key of path) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  return typeof node === 'string' ? node : undefined;
}

interface Props {
  /** The language file opened: its column stands beside Dutch's. */
  code: string;
  files: FileMap;
  readOnly: boolean;
  writeFiles(changes: Record<string, FileContent | undefined>): void;
}

/**
 * The texts of languages side by side: every text Dutch has, a row each, a column per language; a
 * text a language lacks is marked, since its pages show the Dutch one there. Typing a text writes it
 * into that language's file; emptying it lets the Dutch one show again.
 */
export function LanguageTable({ code, files, readOnly, writeFiles }: Props) {
  const t = useStudioT();
  const layout = useLayout();
  const fileOf = layout.languageFile;
  const names = languagesOf(files, layout);
  const [shown, setShown] = useState<string[]>(() => [...new Set([FALLBACK_LOCALE, code])]);
  const [onlyMissing, setOnlyMissing] = useState(false);
  const trees = useMemo(() => new Map(shown.map((c) => [c, jsonOf(files, fileOf(c))])), [files, shown, fileOf]);
  const rows = textPaths(trees.get(FALLBACK_LOCALE)).filter(([section]) => section !== 'language');
  const visible = onlyMissing ? rows.filter((path) => shown.some((c) => textAtPath(trees.get(c), path) === undefined)) : rows;
  const write = (language: string, path: string[], text: string) => {
    const file = files.get(fileOf(language));
    if (typeof file === 'string') writeFiles({ [fileOf(language)]: setAt(file, path, text === '' && language !== FALLBACK_LOCALE ? undefined : text) });
  };
  return (
    <div className="language-table">
      <fieldset className="language-table__columns">
        <legend>{t('texts.columns')}</legend>
        {[...names].map(([c, name]) => (
          <label key={c}>
            <input type="checkbox" checked={shown.includes(c)} disabled={c === FALLBACK_LOCALE} onChange={(e) => setShown(e.target.checked ? [...shown, c] : shown.filter((s) => s !== c))} /> {name} ({c})
          </label>
        ))}
      </fieldset>
      <label className="language-table__filter">
        <input type="checkbox" checked={onlyMissing} onChange={(e) => setOnlyMissing(e.target.checked)} /> {t('texts.onlyMissing')}
      </label>
      <table>
        <caption>{t('texts.caption', { count: visible.length })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('texts.key')}</th>
            {shown.map((c) => (
              <th key={c} scope="col" id={`column-${c}`} lang={c}>
                {names.get(c) ?? c} ({c})
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {visible.map((path) => {
            const key = path.join('.');
            return (
              <tr key={key}>
                <th scope="row" id={`text-${key}`}>
                  <code>{key}</code>
                </th>
                {shown.map((c) => {
                  const value = textAtPath(trees.get(c), path);
                  return (
                    <td key={c} className={value === undefined ? 'language-table__fallback' : undefined}>
                      <textarea lang={c} rows={Math.min(4, Math.ceil((value ?? '').length / 60) || 1)} value={value ?? ''} readOnly={readOnly} aria-labelledby={`text-${key} column-${c}`} aria-describedby={value === undefined ? 'fallback-note' : undefined} onChange={(e) => write(c, path, e.target.value)} />
                      {value === undefined && <span className="studio-tag">{t('texts.fallsBack')}</span>}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
      <p id="fallback-note" className="studio-field__hint">
        {t('texts.fallbackNote')}
      </p>
    </div>
  );
}
