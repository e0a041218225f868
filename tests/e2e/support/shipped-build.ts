/**
 * The browser suite's second global setup (vitest.e2e.config.ts): the shipped
 * data (brands/ and schemas/, whatever and however many brands and forms are
 * there) must pass validate's checks and build (dist/web, rebuilt when stale).
 * What the shipped-data checks ask for is named here, where brands/ and
 * schemas/ may be read: test files may not (tests/support/no-shipped-data.ts).
 */
import type { TestProject } from 'vitest/node';
import { checkedBrands, projectProblemLines } from '../../../src/cli/checked-project';
import { brandPaths } from '../../../src/core/brands';
import type { FormModel } from '../../../src/core/form-model';
import type { RuleData } from '../../../src/core/keywords/index';
import type { Brand } from '../../../src/core/types';
import { loadPortalData } from '../../../src/server/portal-data';
import { buildIfStale, snapshotWebRoot } from './global-setup';
import { ROOT, SHIPPED_BUILD } from './paths';

/** A shipped brand with the form it uses, as the server assembles it. */
export interface ShippedBrand {
  brand: Brand;
  form: FormModel;
}

declare module 'vitest' {
  interface ProvidedContext {
    /** A private copy of the shipped data's build, for the server's WEB_ROOT. */
    shippedWebRoot: string;
    /** Every page of every shipped brand (/<id>/<locale>/<country>). */
    shippedPages: string[];
    /** Every shipped brand and its form. */
    shippedBrands: ShippedBrand[];
    /** What the shipped forms' rules read (the countries' postal-code patterns). */
    shippedRules: RuleData;
  }
}

export default function setup(project: TestProject): () => void {
  const problems = projectProblemLines(ROOT, SHIPPED_BUILD);
  if (problems.length > 0) throw new Error(`the shipped brands and data do not pass npm run validate:\n${problems.join('\n')}`);
  buildIfStale(SHIPPED_BUILD);
  const snapshot = snapshotWebRoot(SHIPPED_BUILD.webRoot);
  const { brands } = checkedBrands(ROOT, SHIPPED_BUILD);
  const { forms, rules } = loadPortalData(SHIPPED_BUILD.schemasDir);
  project.provide('shippedWebRoot', snapshot.dir);
  project.provide('shippedPages', brandPaths(brands));
  project.provide('shippedBrands', brands.map((brand) => ({ brand, form: forms.get(brand.form)! })));
  project.provide('shippedRules', rules);
  return () => snapshot.remove();
}
