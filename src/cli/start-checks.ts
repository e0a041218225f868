import type { Brand } from '../core/types';
import { checkedBrands, ProjectCheckError, type DataFolders } from './checked-project';

/** Prints the lines and ends the process: npm start will not serve. */
export function refuse(lines: string[]): never {
  for (const line of lines) console.error(line);
  process.exit(1);
}

/** The brands in brandsDir (the server's BRANDS_DIR), checked with the data in schemasDir (SCHEMAS_DIR), or a refusal with npm run validate's own messages. */
export function brandsOrRefuse(root: string, folders: DataFolders): Brand[] {
  try {
    return checkedBrands(root, folders).brands;
  } catch (error) {
    if (!(error instanceof ProjectCheckError)) throw error;
    refuse(['npm start will not serve the portal: npm run validate finds these problems.', '', ...error.lines, '', 'Fix them, then run npm start again.']);
  }
}
