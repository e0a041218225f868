import type { ObjectFieldTemplateProps } from '@rjsf/utils';
import { formContextOf } from '../form-context';

/**
 * The root object renders the sections of its uiSchema (`ui:options.sections`)
 * as fieldset/legend; properties in no section (hidden ones) follow.
 */
export function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const { properties, registry } = props;
  const { t, model } = formContextOf(registry);
  const byName = new Map(properties.map((p) => [p.name, p]));
  const { sections } = model;
  const placed = new Set(sections.flatMap((s) => s.fields));
  return (
    <>
      {sections.map((section) => (
        <fieldset key={section.id} className={`form-section form-section--${section.id}`}>
          <legend className="form-section__legend">{t(`sections.${section.id}`)}</legend>
          {section.fields.map((name) => byName.get(name)?.content)}
        </fieldset>
      ))}
      {properties.filter((p) => !placed.has(p.name)).map((p) => p.content)}
    </>
  );
}
