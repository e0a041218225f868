// Imports name their .ts files: vite.studio.config.ts loads this module.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Plugin } from 'vite';
import type { DataFolders } from '../checked-project.ts';

/** The editors' rule files beside the data: what a brand, form, uiSchema or language file may say. */
const RULE_FILES = ['brand.schema.json', 'form.schema.json', 'form-ui.schema.json', 'language.schema.json'];
/** Files the studio reads as bytes (pictures that are not text). */
const BINARY = /\.png$/i;

/** A file of the project as the studio gets it: text as is, pictures as base64. */
export type SnapshotFile = { text: string } | { base64: string };

/** Where the data is in the project, relative to its folder: brands/ and schemas/ unless BRANDS_DIR and SCHEMAS_DIR say otherwise. */
export interface SnapshotLayout {
  brandsDir: string;
  schemasDir: string;
  /** The folder of the rule files (brand.schema.json and the editors' schemas of forms, uiSchemas and languages). */
  rulesDir: string;
}

/**
 * What the studio edits, at the paths the project has it (relative to the project's folder, as
 * `npm run validate` names files): the brand files with their pictures (BRANDS_DIR), the forms,
 * languages and countries (SCHEMAS_DIR) and the rule files. A change the studio hands over is a patch
 * against exactly these bytes at these paths.
 */
export interface ProjectSnapshot {
  /** The commit the studio was built from, when the build ran in a git checkout. */
  commit?: string;
  layout: SnapshotLayout;
  files: Record<string, SnapshotFile>;
}

const projectPath = (root: string, file: string) => relative(root, file).split(sep).join('/');

function filesUnder(dir: string): string[] {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.'))
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));
}

function headCommit(root: string): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The snapshot of the data in `folders` (and the rule files of the project at root), read now. */
export function projectSnapshot(root: string, { brandsDir, schemasDir }: DataFolders): ProjectSnapshot {
  const rulesDir = join(root, 'schemas');
  const data = new Set([
    ...filesUnder(brandsDir).filter((file) => file.endsWith('.json') || file.startsWith(join(brandsDir, 'assets') + sep)),
    ...filesUnder(schemasDir).filter((file) => file.endsWith('.json')),
    ...RULE_FILES.map((name) => join(rulesDir, name)).filter((file) => existsSync(file)),
  ]);
  const files: Record<string, SnapshotFile> = {};
  for (const file of [...data].sort()) {
    const bytes = readFileSync(file);
    files[projectPath(root, file)] = BINARY.test(file) ? { base64: bytes.toString('base64') } : { text: bytes.toString('utf8') };
  }
  const layout = { brandsDir: projectPath(root, brandsDir), schemasDir: projectPath(root, schemasDir), rulesDir: projectPath(root, rulesDir) };
  return { commit: headCommit(root), layout, files };
}

/** The snapshot's file in the built studio, beside its pages. */
export const SNAPSHOT_FILE = 'project.json';

/** `npm run build`: writes project.json beside the built studio. */
export function studioSnapshot(root: string, folders: DataFolders): Plugin {
  return {
    name: 'repair-portal:studio-snapshot',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: SNAPSHOT_FILE, source: JSON.stringify(projectSnapshot(root, folders)) });
    },
  };
}

/** Where `npm run dev` serves the studio's page from its source (Vite serves the project's files by their paths). */
const DEV_STUDIO = '/src/studio/';

/**
 * `npm run dev`: /studio opens the studio from its source, and its project.json is read afresh from the
 * files on disk at each request, so the studio there starts from what the folders hold now.
 */
export function studioInDev(root: string, folders: DataFolders): Plugin {
  return {
    name: 'repair-portal:studio-in-dev',
    apply: 'serve',
    // The studio's pages carry their policy for static hosts; Vite's dev server injects inline scripts and styles it refuses.
    transformIndexHtml(html, context) {
      return context.path.startsWith(DEV_STUDIO) ? html.replace(/\s*<meta http-equiv="Content-Security-Policy"[^>]*>/, '') : html;
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = req.url?.split('?')[0];
        if (path === '/studio' || path === '/studio/') {
          res.writeHead(302, { location: `${DEV_STUDIO}index.html` }).end();
        } else if (path === `${DEV_STUDIO}${SNAPSHOT_FILE}`) {
          res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(projectSnapshot(root, folders)));
        } else {
          next();
        }
      });
    },
  };
}
