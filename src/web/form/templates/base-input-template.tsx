import { getInputProps, type WidgetProps } from '@rjsf/utils';
import { controlHandlers, fieldAria, formContextOf, hardMaxLength } from '../form-context';

/** What the address lookup fills in: these fields show a spinner while it runs. */
const LOOKUP_OUTPUTS = new Set(['straatnaam', 'woonplaatsnaam']);

/**
 * Every <input> of the form (text, email, tel, number). A form with the
 * stopAtMaxLength option (the extended one) stops its inputs at the schema's
 * maxLength (it shows no max-length message); others let the message show.
 */
export function BaseInputTemplate(props: WidgetProps) {
  const { id, value, required, disabled, readonly, autofocus, options, schema, registry, type, placeholder } = props;
  const ctx = formContextOf(registry);
  const inputProps = getInputProps(schema, type, options);
  const numeric = inputProps.type === 'number';
  const inputValue = numeric ? (value || value === 0 ? value : '') : (value ?? '');
  const lookupTarget = LOOKUP_OUTPUTS.has(String(options.addressLookup));
  const lookupBusy = lookupTarget && ctx.lookupBusy;
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
  if (!lookupTarget) return input;
  return (
    <div className="field__control">
      {input}
      {lookupBusy && <span className="spinner field__spinner" aria-hidden="true" />}
    </div>
  );
}
