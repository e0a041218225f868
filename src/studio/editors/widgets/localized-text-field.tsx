import type { FieldProps } from '@rjsf/utils';
import { brandLocales } from '../../../core/locale';
import { fieldContextOf } from '../field-context';
import { languagesOf } from '../project-facts';

/**
 * A text visitors read, one per language of the brand, side by side: each language the brand offers
 * gets its box, and one still empty says that the page in that language has no text there.
 */
export function LocalizedTextField(props: FieldProps) {
  const { formData, onChange, fieldPathId, readonly, registry, rawErrors = [] } = props;
  const { files, layout, data, t } = fieldContextOf(registry);
  const id = fieldPathId.$id;
  const texts = (typeof formData === 'object' && formData !== null ? formData : {}) as Record<string, string>;
  const locales = brandLocales({ locales: Array.isArray(data.locales) ? data.locales.map(String) : undefined });
  const names = languagesOf(files, layout);
  const label = props.uiSchema?.['ui:title'] ?? props.name;
  const set = (code: string, text: string) => {
    const next = { ...texts, [code]: text };
    if (text === '') delete next[code];
    onChange(Object.keys(next).length === 0 ? undefined : next, fieldPathId.path);
  };
  return (
    <fieldset className="localized-text" id={id}>
      <legend>{label}</legend>
      {props.schema.description && <p className="studio-field__hint">{props.schema.description}</p>}
      <div className="localized-text__languages">
        {locales.map((code) => {
          const inputId = `${id}_${code}`;
          const missing = Object.keys(texts).length > 0 && !texts[code];
          return (
            <div key={code} className="localized-text__language">
              <label htmlFor={inputId} lang={code}>
                {names.get(code) ?? code} ({code})
              </label>
              <input id={inputId} type="text" lang={code} className="form-control" value={texts[code] ?? ''} readOnly={readonly} aria-invalid={missing || undefined} onChange={(e) => set(code, e.target.value)} />
              {missing && <p className="studio-field__missing">{t('fields.textMissing')}</p>}
            </div>
          );
        })}
      </div>
      {rawErrors.length > 0 && (
        <ul className="studio-field__errors">
          {rawErrors.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
