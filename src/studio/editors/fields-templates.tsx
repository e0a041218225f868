import { getDefaultRegistry } from '@rjsf/core';
import type { BaseInputTemplateProps, FieldErrorProps, FieldTemplateProps, IconButtonProps, TemplatesType, TitleFieldProps } from '@rjsf/utils';
import { errorId, getTemplate, getUiOptions, TranslatableString } from '@rjsf/utils';

const defaults = getDefaultRegistry().templates;

/** rjsf's input, marked invalid while CI finds something wrong with it (its findings are the field's errors). */
function BaseInputTemplate(props: BaseInputTemplateProps) {
  const Base = defaults.BaseInputTemplate;
  return <Base {...props} aria-invalid={props.rawErrors && props.rawErrors.length > 0 ? true : undefined} />;
}

/** CI's findings at a field, under it, with the id its control's aria-describedby names. */
function FieldErrorTemplate({ errors = [], fieldPathId }: FieldErrorProps) {
  const shown = errors.filter(Boolean);
  if (shown.length === 0) return null;
  return (
    <ul id={errorId(fieldPathId)} className="studio-field__errors">
      {shown.map((error, i) => (
        <li key={i}>{error}</li>
      ))}
    </ul>
  );
}

/** rjsf's field with its label; a required field says so to the eye with *, and to a screen reader by its control's own `required`. */
function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, errors, help, description, hidden, required, displayLabel, registry, uiSchema } = props;
  const options = getUiOptions(uiSchema);
  const WrapIfAdditionalTemplate = getTemplate('WrapIfAdditionalTemplate', registry, options);
  if (hidden) return <div className="hidden">{children}</div>;
  return (
    <WrapIfAdditionalTemplate {...props}>
      {displayLabel && options.widget !== 'checkbox' && (
        <label htmlFor={id}>
          {label}
          {required && <span aria-hidden="true"> *</span>}
        </label>
      )}
      {displayLabel && description ? description : null}
      {children}
      {errors}
      {help}
    </WrapIfAdditionalTemplate>
  );
}

/** A group's legend; a required group is marked * for the eye, as its fields are (screen readers hear each field's own required). */
function TitleFieldTemplate({ id, title, required, optionalDataControl }: TitleFieldProps) {
  return (
    <legend id={id}>
      {title}
      {required && <span aria-hidden="true"> *</span>}
      {optionalDataControl}
    </legend>
  );
}

/** A list's or a group's button, saying in words what it does (rjsf's own show an icon font the studio does not load). */
function textButton(what: TranslatableString) {
  return function TextButton({ iconType: _type, icon: _icon, className: _class, uiSchema: _ui, registry, ...button }: IconButtonProps) {
    return (
      <button type="button" className="studio-button studio-button--small" {...button}>
        {registry.translateString(what)}
      </button>
    );
  };
}

const ButtonTemplates = {
  ...defaults.ButtonTemplates,
  AddButton: textButton(TranslatableString.AddItemButton),
  CopyButton: textButton(TranslatableString.CopyButton),
  MoveDownButton: textButton(TranslatableString.MoveDownButton),
  MoveUpButton: textButton(TranslatableString.MoveUpButton),
  RemoveButton: textButton(TranslatableString.RemoveButton),
};

/** The studio's templates over rjsf's own: controls that say they are invalid, and errors in plain lists. */
export const studioTemplates: Partial<TemplatesType> = { FieldTemplate, TitleFieldTemplate, BaseInputTemplate, FieldErrorTemplate, ButtonTemplates, ErrorListTemplate: () => null };
