/** Where the portal's data lives in a project, as project paths (forward slashes, relative to its folder). */
export interface ProjectLayout {
  /** The brand files (<id>.json) and their pictures: brands/, or BRANDS_DIR. */
  brandsDir: string;
  /** The forms, languages and countries: schemas/, or SCHEMAS_DIR. */
  schemasDir: string;
  /** The rules of a brand file: the portal's own, beside the project's schemas/ whatever SCHEMAS_DIR says. */
  brandSchema: string;
}

export const PROJECT_LAYOUT: ProjectLayout = { brandsDir: 'brands', schemasDir: 'schemas', brandSchema: 'schemas/brand.schema.json' };
