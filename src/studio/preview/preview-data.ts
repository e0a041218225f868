import type { RJSFSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { repairAjvOptions } from '../../core/ajv-options';
import { brandFromFile } from '../../core/brand-file';
import { indexCountries, type Countries, type CountryFile } from '../../core/countries';
import { addRepairRules, type RuleData } from '../../core/keywords';
import { pageSchema, pageUiSchema } from '../../core/page-form';
import type { Brand, RepairFormData, FormName } from '../../core/types';
import { inMemoryFiles, portalDataOf } from '../../core/validate';
import { brandThemeCss } from '../../web/app/brand-theme-css';
import { formValidation, type FormValidation } from '../../web/form/validation';
import { pageTexts, type PageTexts } from '../../web/i18n';
import type { TextTree } from '../../core/texts';
import type { ProjectLayout } from '../project/layout';
import { sameContent, type FileContent } from '../project/project-files';

/** What the page is made of, from the files as edited: the same shape the built portal gives its page. */
export interface PreviewData {
  brands: ReadonlyMap<string, Brand>;
  texts: PageTexts;
  countries: Countries;
  /** Each form, compiled from its files (cached by content: a change elsewhere compiles nothing). */
  loadForm(formName: FormName): Promise<FormValidation>;
  assetUrl(path: string): string;
  themeCss: string;
}

type Files = Readonly<Record<string, FileContent>>;

const parse = <T>(files: Files, path: string): T => {
  const text = files[path];
  if (typeof text !== 'string') throw new Error(`${path} is missing`);
  return JSON.parse(text) as T;
};

/** A promise React's `use` reads at once: the preview never suspends (no blank page between two keystrokes). */
function settled<T>(value: T): Promise<T> {
  return Object.assign(Promise.resolve(value), { status: 'fulfilled', value });
}

/** Validators by the schema and rules they were compiled from: compiling is the costly step of a preview. */
const compiled = new Map<string, ReturnType<typeof customizeValidator<RepairFormData, RJSFSchema>>>();

function validatorFor(schema: RJSFSchema, rules: RuleData) {
  const key = JSON.stringify([schema, rules]);
  let validator = compiled.get(key);
  if (!validator) {
    // The page's options and keywords (src/cli/vite/form-modules.ts precompiles with the same), compiled here in the browser.
    validator = customizeValidator<RepairFormData, RJSFSchema>({ ajvOptionsOverrides: { ...repairAjvOptions, verbose: false }, extenderFn: (ajv) => addRepairRules(ajv, rules) });
    compiled.set(key, validator);
    if (compiled.size > 8) compiled.delete(compiled.keys().next().value!);
  }
  return validator;
}

/** blob: URLs of the pictures, made again only for a picture that changed (each message brings the files as new copies: compared by content, or a logo still loading loses its URL). */
const pictureUrls = new Map<string, { content: FileContent; url: string }>();

function pictureUrl(files: Files, file: string): string {
  const content = files[file];
  if (content === undefined) return '';
  const kept = pictureUrls.get(file);
  if (kept && sameContent(kept.content, content)) return kept.url;
  if (kept) URL.revokeObjectURL(kept.url);
  const url = URL.createObjectURL(new Blob([content as BlobPart], { type: file.endsWith('.png') ? 'image/png' : 'image/svg+xml' }));
  pictureUrls.set(file, { content, url });
  return url;
}

/** The preview's data from the files; throws where they cannot make a page (the studio's findings say why). */
export function previewData(files: Files, layout: ProjectLayout): PreviewData {
  const map = new Map(Object.entries(files));
  const brands = new Map(layout.brandIds(map).map((id) => [id, brandFromFile(parse<Record<string, unknown>>(files, layout.brandFile(id)))]));
  const trees = Object.fromEntries(layout.languageCodes(map).map((code) => [code, parse<TextTree>(files, layout.languageFile(code))]));
  const texts = pageTexts(trees);
  const portal = portalDataOf(inMemoryFiles(files), layout.schemasDir);
  const forms = new Map<FormName, Promise<FormValidation>>();
  const loadForm = (formName: FormName) => {
    let form = forms.get(formName);
    if (!form) {
      const model = portal.forms.get(formName);
      if (!model) throw new Error(`${layout.formFile(formName)} is missing`);
      const schema = pageSchema(model.schema);
      form = settled(formValidation(formName, validatorFor(schema as RJSFSchema, portal.rules), { schema, uiSchema: pageUiSchema(model.uiSchema) }, texts.languages));
      forms.set(formName, form);
    }
    return form;
  };
  return {
    brands,
    texts,
    countries: indexCountries(parse<CountryFile>(files, layout.countriesFile)),
    loadForm,
    assetUrl: (named) => pictureUrl(files, layout.picture(named)),
    themeCss: brandThemeCss([...brands.values()]),
  };
}
