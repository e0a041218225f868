import type { WidgetProps } from '@rjsf/utils';
import { privacyPolicyUrl } from '../../../../core/privacy-policy';
import { taggedText } from '../../../i18n/tagged-text';
import { fieldAria, fieldNameOf, formContextOf } from '../../form-context';

/** The terms checkbox; its label links to the privacy policy of the brand, country and language. */
export function TermsCheckboxWidget(props: WidgetProps) {
  const { id, value, required, disabled, readonly, onChange, onBlur, onFocus, registry } = props;
  const ctx = formContextOf(registry);
  const href = privacyPolicyUrl(ctx.brand, ctx.country, ctx.locale);
  return (
    <div className="checkbox">
      <input
        id={id}
        name={id}
        type="checkbox"
        className="checkbox__input"
        checked={value === true}
        required={required}
        disabled={disabled || readonly}
        {...fieldAria(ctx, id)}
        onChange={(e) => onChange(e.target.checked)}
        onBlur={(e) => onBlur(id, e.target.checked)}
        onFocus={(e) => onFocus(id, e.target.checked)}
      />
      <label className="checkbox__label" htmlFor={id}>
        {taggedText(ctx.t(`fields.${fieldNameOf(id)}`), 'privacy', (inner) => (
          <a href={href} target="_blank" rel="noopener noreferrer">
            {inner}
          </a>
        ))}
      </label>
    </div>
  );
}
