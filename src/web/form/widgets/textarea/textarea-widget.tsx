import type { WidgetProps } from '@rjsf/utils';
import { fieldAria, formContextOf } from '../../form-context';

export function TextareaWidget(props: WidgetProps) {
  const { id, value, required, disabled, readonly, onChange, onBlur, onFocus, options, schema, registry } = props;
  const ctx = formContextOf(registry);
  return (
    <textarea
      id={id}
      name={id}
      className="field__input field__textarea"
      value={value ?? ''}
      rows={typeof options.rows === 'number' ? options.rows : 5}
      required={required}
      disabled={disabled}
      readOnly={readonly}
      maxLength={ctx.variant === 'extended' && typeof schema.maxLength === 'number' ? schema.maxLength : undefined}
      {...fieldAria(ctx, id)}
      onChange={(e) => onChange(e.target.value === '' ? options.emptyValue : e.target.value)}
      onBlur={(e) => onBlur(id, e.target.value)}
      onFocus={(e) => onFocus(id, e.target.value)}
    />
  );
}
