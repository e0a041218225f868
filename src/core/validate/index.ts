/**
 * The checks of `npm run validate`, and what the brand studio needs beside them, as one browser-safe
 * module: the CLI reads the project from disk and prints these findings; the studio runs the same
 * code on its edits, so both say the same words at the same `file:line:column`. (Not in core/index.ts:
 * it compiles schemas with ajv, which a customer's page must not ship.)
 */
export { checkProject, type BrandPages, type ProjectReport } from './project.ts';
export { jsonFindings, reportLines, OUTPUT_FORMATS, type JsonFinding, type OutputFormat, type OutputOptions } from './report-format.ts';
export { formatProblem, type Problem, type Severity } from './problem.ts';
export { jsonSyntaxProblems, positionAt, type SyntaxProblem, type TextPosition } from './json-syntax.ts';
export { brandFilesOf } from './brand-project.ts';
export { inMemoryFiles, type ProjectFiles } from '../project-files.ts';
export { PROJECT_LAYOUT, type ProjectLayout } from '../project-layout.ts';
export { portalDataOf, languageCodes, formNames, type PortalData } from '../portal-data.ts';
export { planNewBrand, type NewBrandPlan, type NewBrandRequest } from '../scaffold/new-brand.ts';
export { planNewLanguage, type NewLanguagePlan, type NewLanguageRequest } from '../scaffold/new-language.ts';
