import type { Brand } from '../core/types';
import { BrandCheckError, checkedBrands } from './checked-brands';

/** Prints the lines and ends the process: npm start will not serve. */
export function refuse(lines: string[]): never {
  for (const line of lines) console.error(line);
  process.exit(1);
}

/** The brands in brandsDir (the server's BRANDS_DIR), or a refusal with npm run validate's own messages. */
export function brandsOrRefuse(root: string, brandsDir: string): Brand[] {
  try {
    return checkedBrands(root, brandsDir).brands;
  } catch (error) {
    if (!(error instanceof BrandCheckError)) throw error;
    refuse(['npm start will not serve the portal: npm run validate finds these problems.', '', ...error.lines, '', 'Fix them, then run npm start again.']);
  }
}
