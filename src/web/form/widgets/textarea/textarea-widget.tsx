import type { WidgetProps } from '@rjsf/utils';
import { controlHandlers, fieldAria, formContextOf, hardMaxLength } from '../../form-context';

export function TextareaWidget(props: WidgetProps) {
  const { id, value, required, disabled, readonly, options, schema, registry } = props;
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
      maxLength={hardMaxLength(ctx, schema)}
      {...fieldAria(ctx, id)}
      {...controlHandlers(props)}
    />
  );
}
