// Extensions written out: vite.config.ts loads this module (through src/cli/checked-project.ts).
import { portalDataOf, type PortalData } from '../core/portal-data.ts';
import { diskFiles } from './disk-files.ts';

export type { PortalData } from '../core/portal-data.ts';

/**
 * The forms, languages and countries in schemasDir, read from disk once at start by the server, the
 * staff commands and the build, and assembled as the studio's preview assembles its edits (core/portal-data.ts).
 */
export function loadPortalData(schemasDir: string): PortalData {
  return portalDataOf(diskFiles(schemasDir), '');
}
