import Form from '@rjsf/core';
import { replaceStringParameters, type ErrorSchema, type RegistryFieldsType, type RegistryWidgetsType, type RJSFSchema, type UiSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Component, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { fromPointer } from '../../core/validate/problem';
import type { Finding } from '../project/findings';
import type { FileContent, FileMap } from '../project/project-files';
import { useLayout } from '../project/layout';
import { useStudioT } from '../studio-texts';
import brandUi from '../fields/brand.ui.json';
import formUi from '../fields/form.ui.json';
import uiSchemaUi from '../fields/ui-schema.ui.json';
import { controlOf } from './field-ids';
import type { FieldContext } from './field-context';
import { studioTemplates } from './fields-templates';
import { editedText } from './json-edits';
import { jsonOf, parseJson } from './project-facts';
import type { Reveal } from './reveal';
import { CountryChoiceField, LanguageChoiceField } from './widgets/choice-fields';
import { ColourWidget } from './widgets/colour-widget';
import { LocalizedTextField } from './widgets/localized-text-field';
import { PictureWidget } from './widgets/picture-widget';
import { FormChoiceWidget, LanguageSelectWidget } from './widgets/select-widgets';

/** Which rule file a kind of file is written by, and how the studio lays out its fields (data: fields/*.ui.json). */
export const FIELD_RULES = {
  brand: { schema: 'brand.schema.json', ui: brandUi, labels: 'brand' },
  form: { schema: 'form.schema.json', ui: formUi, labels: 'form' },
  sharedFields: { schema: 'form.schema.json', ui: formUi, labels: 'form' },
  uiSchema: { schema: 'form-ui.schema.json', ui: uiSchemaUi, labels: 'uiSchema' },
} as const;
export type FieldKind = keyof typeof FIELD_RULES;

// Rule files are draft 2020-12 and carry what editors read (errorMessage, …): rjsf reads them to lay out fields, never to judge.
const validator = customizeValidator({ AjvClass: Ajv2020 as never, ajvOptionsOverrides: { strict: false } });
const widgets: RegistryWidgetsType = { colour: ColourWidget, picture: PictureWidget, formChoice: FormChoiceWidget, languageSelect: LanguageSelectWidget };
const fields: RegistryFieldsType = { countryChoice: CountryChoiceField, languageChoice: LanguageChoiceField, localizedText: LocalizedTextField };
const defaultsBehaviour = { emptyObjectFields: 'skipDefaults', arrayMinItems: { populate: 'never' }, constAsDefaults: 'never', allOf: 'skipDefaults' } as const;

/**
 * The rule schema as rjsf lays out its fields: without its conditions (if/then/else), which only judge a
 * file (validate judges it, with the whole schema); rjsf would otherwise swap a field's schema for a
 * condition's `true` and lose the field. Members named like keywords ($ref, $id, $schema: what a form
 * file may write) are left to the JSON text: rjsf would read them as references of the rule schema itself.
 */
function layoutSchema(node: unknown, members = false): unknown {
  if (Array.isArray(node)) return node.map((item) => layoutSchema(item));
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => (members ? !key.startsWith('$') : !CONDITIONS.has(key)))
      .map(([key, value]) => [key, layoutSchema(value, !members && key === 'properties')]),
  );
}
const CONDITIONS = new Set(['if', 'then', 'else']);

/** CI's findings in this file as rjsf's error schema: each message at the field its pointer names. */
function errorSchemaOf(findings: readonly Finding[]): ErrorSchema {
  const root: Record<string, unknown> = {};
  for (const finding of findings.filter((f) => f.severity === 'error' && f.pointer !== '')) {
    let node = root;
    for (const segment of fromPointer(finding.pointer)) node = (node[segment] ??= {}) as Record<string, unknown>;
    ((node.__errors ??= []) as string[]).push(finding.message);
  }
  return root as ErrorSchema;
}

/** The studio's layout of a kind of file, with its labels in the studio's language ("theme.primary" → ui:title). */
function uiWithLabels(ui: object, labels: Record<string, string>): UiSchema {
  const result = structuredClone(ui) as Record<string, unknown>;
  for (const [path, title] of Object.entries(labels)) {
    let node = result;
    for (const segment of path.split('.')) node = (node[segment] ??= {}) as Record<string, unknown>;
    node['ui:title'] = title;
  }
  return result as UiSchema;
}

interface Props {
  path: string;
  kind: FieldKind;
  text: string;
  files: FileMap;
  findings: readonly Finding[];
  readOnly: boolean;
  reveal: Reveal | undefined;
  onChange(text: string): void;
  writeFiles(changes: Record<string, FileContent | undefined>): void;
}

/**
 * The file as a form generated from its own rule file's JSON Schema, by the project's rjsf: CI's
 * findings under the fields they concern, and the studio's widgets where a person expects them
 * (colours with their contrast, pictures, languages and countries to tick). A change rewrites only
 * the values that changed in the JSON text, so both editors stay in step.
 */
export function FieldsEditor({ path, kind, text, files, findings, readOnly, reveal, onChange, writeFiles }: Props) {
  const t = useStudioT();
  const root = useRef<HTMLDivElement>(null);
  const layout = useLayout();
  const rules = FIELD_RULES[kind];
  const rulesText = files.get(layout.ruleFile(rules.schema));
  const schema = useMemo(() => {
    const parsed = parseJson(rulesText);
    return parsed === undefined ? undefined : (layoutSchema(parsed) as RJSFSchema);
  }, [rulesText]);
  const data = jsonOf(files, path);
  const language = t('studio.languageCode');
  const uiSchema = useMemo(() => uiWithLabels(rules.ui, t(`labels.${rules.labels}`, { returnObjects: true, defaultValue: {} }) as Record<string, string>), [rules, t]);
  const extraErrors = useMemo(() => errorSchemaOf(findings), [findings]);

  useEffect(() => {
    if (!reveal || reveal.target !== 'fields' || !root.current) return;
    const control = controlOf(root.current.ownerDocument, fromPointer(reveal.pointer));
    control?.scrollIntoView({ block: 'center' });
    control?.focus();
  }, [reveal]);

  if (!schema) return <p className="studio-notice">{t('editor.noRules', { file: layout.ruleFile(rules.schema) })}</p>;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return <p className="studio-notice">{t('editor.notJson')}</p>;
  const context: FieldContext = { path, files, layout, data: data as Record<string, unknown>, writeFiles, t, language };
  return (
    <div ref={root} className="fields-editor">
      <FormBoundary fallback={<p className="studio-notice">{t('editor.fieldsFailed')}</p>}>
        <Form
          schema={schema}
          uiSchema={uiSchema}
          formData={data}
          validator={validator}
          formContext={context}
          widgets={widgets}
          fields={fields}
          templates={studioTemplates}
          extraErrors={extraErrors}
          experimental_defaultFormStateBehavior={defaultsBehaviour}
          translateString={(text, params) => replaceStringParameters(t(`rjsf.${text}`, { defaultValue: text }), params)}
          readonly={readOnly}
          noHtml5Validate
          noValidate
          showErrorList={false}
          onChange={(event) => onChange(editedText(text, data, event.formData))}
        >
          {/* The file changes as it is edited: there is nothing to send. */}
          <></>
        </Form>
      </FormBoundary>
    </div>
  );
}

/** A rule file rjsf cannot lay out leaves the JSON text to edit, not a blank studio. */
class FormBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
