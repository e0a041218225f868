import type { WidgetProps } from '@rjsf/utils';
import { controlHandlers, fieldAria, fieldNameOf, formContextOf } from '../../form-context';

/**
 * Enum select; option labels from i18n (`countries.<code>` for the country
 * field, `options.<field>.<value>` otherwise). The country field offers the
 * brand's countries only.
 */
export function SelectWidget(props: WidgetProps) {
  const { id, value, required, disabled, readonly, options, registry } = props;
  const ctx = formContextOf(registry);
  const name = fieldNameOf(id);
  const isCountry = ctx.model.roles.country === name;
  const labelKey = isCountry ? 'countries' : `options.${name}`;
  const offered = (options.enumOptions ?? []).filter((option) => !isCountry || ctx.brand.countries.includes(String(option.value)));
  return (
    <select
      id={id}
      name={id}
      className="field__input field__select"
      value={value ?? ''}
      required={required}
      disabled={disabled || readonly}
      autoComplete={typeof options.autocomplete === 'string' ? options.autocomplete : undefined}
      {...fieldAria(ctx, id)}
      {...controlHandlers(props)}
    >
      {/* Always first and empty: a required select needs it (HTML), and the choice can be seen undone. */}
      <option value="">{ctx.t('selectPlaceholder')}</option>
      {offered.map((option) => (
        <option key={String(option.value)} value={String(option.value)}>
          {ctx.t(`${labelKey}.${String(option.value)}`, { defaultValue: option.label })}
        </option>
      ))}
    </select>
  );
}
