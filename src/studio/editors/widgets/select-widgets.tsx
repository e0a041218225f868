import type { WidgetProps } from '@rjsf/utils';
import { fieldContextOf } from '../field-context';
import { languagesOf } from '../project-facts';

/** A choice among the names the project has (its forms, its languages), keeping a value it lacks visible so it can be corrected. */
function NameSelect({ props, choices }: { props: WidgetProps; choices: [value: string, label: string][] }) {
  const { id, value, onChange, onBlur, readonly, rawErrors = [] } = props;
  const known = choices.some(([choice]) => choice === value);
  return (
    <select
      id={id}
      className="form-control"
      value={typeof value === 'string' ? value : ''}
      disabled={readonly}
      aria-invalid={rawErrors.length > 0 || undefined}
      aria-describedby={`${id}__error ${id}__description`}
      onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      onBlur={(e) => onBlur(id, e.target.value)}
    >
      {!known && <option value={typeof value === 'string' ? value : ''}>{typeof value === 'string' ? value : ''}</option>}
      {choices.map(([choice, label]) => (
        <option key={choice} value={choice}>
          {label}
        </option>
      ))}
    </select>
  );
}

/** The brand's form: one of schemas/forms. */
export function FormChoiceWidget(props: WidgetProps) {
  const { files, layout } = fieldContextOf(props.registry);
  return <NameSelect props={props} choices={layout.formNames(files).map((name) => [name, name])} />;
}

/** A language of the project, by its own name. */
export function LanguageSelectWidget(props: WidgetProps) {
  const { files, layout } = fieldContextOf(props.registry);
  return <NameSelect props={props} choices={[...languagesOf(files, layout)].map(([code, name]) => [code, `${name} (${code})`])} />;
}
