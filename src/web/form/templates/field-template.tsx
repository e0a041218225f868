import type { FieldTemplateProps } from '@rjsf/utils';
import { errorId, fieldNameOf, formContextOf } from '../form-context';
import { FieldErrorList } from './field-error-list';

/**
 * Label from i18n (`fields.<name>`, not the schema title) and the errors of
 * touched fields only. Photo fields (objects) render their own label and
 * errors; the terms checkbox (boolean) its own label.
 */
export function FieldTemplate(props: FieldTemplateProps) {
  const { id, children, hidden, schema, registry, fieldPathId } = props;
  if (hidden) return <div hidden>{children}</div>;
  if (fieldPathId.path.length === 0 || schema.type === 'object') return children;
  const ctx = formContextOf(registry);
  const name = fieldNameOf(id);
  const errors = ctx.visibleErrors[name];
  const withLabel = schema.type !== 'boolean';
  const classes = ['field', `field--${name}`];
  if (errors?.length) classes.push('field--invalid');
  return (
    <div className={classes.join(' ')}>
      {withLabel && (
        <label className="field__label" htmlFor={id}>
          {ctx.t(`fields.${name}`)}
        </label>
      )}
      {children}
      <FieldErrorList id={errorId(id)} errors={errors} />
    </div>
  );
}
