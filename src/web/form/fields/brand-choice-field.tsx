import type { FieldProps } from '@rjsf/utils';
import { fieldAria, formContextOf, hardMaxLength } from '../form-context';

/**
 * The simple form's brand: a select of the brand file's options in 'choice'
 * mode (Hanant), free text otherwise. The FieldTemplate gives it its label.
 */
export function BrandChoiceField(props: FieldProps<string>) {
  const { fieldPathId, formData, registry, onChange, onBlur, onFocus, required, disabled, readonly, schema } = props;
  const ctx = formContextOf(registry);
  const id = fieldPathId.$id;
  const field = ctx.brand.brandField;
  const common = {
    id,
    name: id,
    className: 'field__input',
    required,
    disabled: disabled || readonly,
    ...fieldAria(ctx, id),
    onBlur: (e: { target: { value: string } }) => onBlur(id, e.target.value),
    onFocus: (e: { target: { value: string } }) => onFocus(id, e.target.value),
  };
  const change = (v: string) => onChange(v === '' ? undefined : v, fieldPathId.path);
  if (field.mode === 'choice') {
    return (
      <select {...common} className="field__input field__select" value={formData ?? ''} onChange={(e) => change(e.target.value)}>
        <option value="">{ctx.t('selectPlaceholder')}</option>
        {field.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  }
  return (
    <input
      {...common}
      type="text"
      autoComplete="off"
      value={formData ?? ''}
      maxLength={hardMaxLength(ctx, schema)}
      onChange={(e) => change(e.target.value)}
    />
  );
}
