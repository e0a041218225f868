import type { FieldProps } from '@rjsf/utils';
import { DEFAULT_LOCALES } from '../../../core/locale';
import { fieldContextOf } from '../field-context';
import { countryCodes, languagesOf } from '../project-facts';

interface Choice {
  code: string;
  name: string;
}

/** A list of codes chosen with a checkbox each, in the order the choices come. */
function CodeChoices({ props, choices, chosen, legend }: { props: FieldProps; choices: Choice[]; chosen: readonly string[]; legend: string }) {
  const { onChange, fieldPathId, readonly, rawErrors = [] } = props;
  const id = fieldPathId.$id;
  const toggle = (code: string, on: boolean) => {
    const next = choices.map((c) => c.code).filter((c) => (c === code ? on : chosen.includes(c)));
    onChange(next, fieldPathId.path);
  };
  return (
    <fieldset className="code-choices" id={id} aria-describedby={rawErrors.length > 0 ? `${id}__error` : undefined}>
      <legend>{legend}</legend>
      {choices.map(({ code, name }) => (
        <label key={code} className="code-choices__choice">
          <input type="checkbox" checked={chosen.includes(code)} disabled={readonly} onChange={(e) => toggle(code, e.target.checked)} aria-invalid={rawErrors.length > 0 || undefined} />
          {name} <span className="code-choices__code">({code})</span>
        </label>
      ))}
      {rawErrors.length > 0 && (
        <ul id={`${id}__error`} className="studio-field__errors">
          {rawErrors.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

/** The brand's languages ("locales"): every language file of the project, by its own name; none chosen means the portal's defaults. */
export function LanguageChoiceField(props: FieldProps) {
  const { files, layout, t } = fieldContextOf(props.registry);
  const chosen = Array.isArray(props.formData) ? (props.formData as string[]) : [...DEFAULT_LOCALES];
  const choices = [...languagesOf(files, layout)].map(([code, name]) => ({ code, name }));
  return <CodeChoices props={props} choices={choices} chosen={chosen} legend={t('fields.brandLanguages')} />;
}

/** The brand's countries: every country of countries.json, by its name in the studio's language. */
export function CountryChoiceField(props: FieldProps) {
  const { files, layout, t, language } = fieldContextOf(props.registry);
  const chosen = Array.isArray(props.formData) ? (props.formData as string[]) : [];
  const names = new Intl.DisplayNames([language], { type: 'region', fallback: 'code' });
  const choices = countryCodes(files, layout).map((code) => ({ code, name: names.of(code.toUpperCase()) ?? code }));
  return <CodeChoices props={props} choices={choices} chosen={chosen} legend={t('fields.brandCountries')} />;
}
