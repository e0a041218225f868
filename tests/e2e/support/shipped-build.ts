/**
 * The browser suite's second global setup (vitest.e2e.config.ts): the shipped
 * brands (brands/, whatever and however many are there) must pass validate's
 * checks and build (dist/web, rebuilt when stale). The pages the shipped-brands
 * check asks for are named here, where brands/ may be read: test files may not
 * (tests/support/no-shipped-brands.ts).
 */
import type { TestProject } from 'vitest/node';
import { brandProblemLines, checkedBrands } from '../../../src/cli/checked-brands';
import { brandPaths } from '../../../src/core/brands';
import { buildIfStale, snapshotWebRoot } from './global-setup';
import { ROOT, SHIPPED_BUILD } from './paths';

declare module 'vitest' {
  interface ProvidedContext {
    /** A private copy of the shipped brands' build, for the server's WEB_ROOT. */
    shippedWebRoot: string;
    /** Every page of every shipped brand (/<id>/<locale>/<country>). */
    shippedPages: string[];
  }
}

export default function setup(project: TestProject): () => void {
  const problems = brandProblemLines(ROOT, SHIPPED_BUILD.brandsDir);
  if (problems.length > 0) throw new Error(`the shipped brands do not pass npm run validate:\n${problems.join('\n')}`);
  buildIfStale(SHIPPED_BUILD);
  const snapshot = snapshotWebRoot(SHIPPED_BUILD.webRoot);
  project.provide('shippedWebRoot', snapshot.dir);
  project.provide('shippedPages', brandPaths(checkedBrands(ROOT, SHIPPED_BUILD.brandsDir).brands));
  return () => snapshot.remove();
}
