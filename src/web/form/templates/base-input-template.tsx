import { getInputProps, type WidgetProps } from '@rjsf/utils';
import { controlHandlers, fieldAria, formContextOf, hardMaxLength } from '../form-context';

/**
 * Every <input> of the form (text, email, tel, number). The extended form's
 * inputs stop at the schema's maxLength (it shows no max-length message);
 * the simple form lets the message show instead.
 */
export function BaseInputTemplate(props: WidgetProps) {
  const { id, value, required, disabled, readonly, autofocus, options, schema, registry, type, placeholder } = props;
  const ctx = formContextOf(registry);
  const inputProps = getInputProps(schema, type, options);
  const numeric = inputProps.type === 'number';
  const inputValue = numeric ? (value || value === 0 ? value : '') : (value ?? '');
  const lookupBusy = Boolean(options.addressLookupTarget) && ctx.lookupBusy;
  const input = (
    <input
      id={id}
      name={id}
      className="field__input"
      {...inputProps}
      value={inputValue}
      required={required}
      disabled={disabled}
      readOnly={readonly}
      autoFocus={autofocus}
      placeholder={placeholder || undefined}
      autoComplete={typeof options.autocomplete === 'string' ? options.autocomplete : undefined}
      inputMode={typeof options.inputMode === 'string' ? (options.inputMode as 'numeric') : undefined}
      maxLength={hardMaxLength(ctx, schema)}
      aria-busy={lookupBusy || undefined}
      {...fieldAria(ctx, id)}
      {...controlHandlers(props)}
    />
  );
  if (!options.addressLookupTarget) return input;
  return (
    <div className="field__control">
      {input}
      {lookupBusy && <span className="spinner field__spinner" aria-hidden="true" />}
    </div>
  );
}
