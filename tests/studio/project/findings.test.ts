/**
 * The studio's own path to its findings, end to end: the snapshot its build writes
 * (src/cli/vite/studio-project.ts), decoded as the browser decodes it (pictures from base64), checked
 * where the snapshot's layout says the data is, gives for every broken brand fixture exactly what
 * `npm run validate -- --format json` prints for the same project.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { runValidate } from '../../../src/cli/validate';
import { projectSnapshot } from '../../../src/cli/vite/studio-project';
import { findingsOf } from '../../../src/studio/project/findings';
import { ProjectLayout } from '../../../src/studio/project/layout';
import { snapshotFiles } from '../../../src/studio/project/project-files';
import { copyProject, fixturesDir, removeProject } from '../../cli/project-copy';

const INVALID = join(fixturesDir, 'invalid');
const roots: string[] = [];
afterEach(() => roots.splice(0).forEach(removeProject));

function projectWith(fixture: string): string {
  const root = copyProject();
  roots.push(root);
  writeFileSync(join(root, 'brands', fixture), readFileSync(join(INVALID, fixture), 'utf8').replace('"../../../../schemas/brand.schema.json"', '"../schemas/brand.schema.json"'));
  cpSync(join(INVALID, 'assets'), join(root, 'brands/assets'), { recursive: true });
  return root;
}

function studioFindings(root: string): string[] {
  const snapshot = JSON.parse(JSON.stringify(projectSnapshot(root, { brandsDir: join(root, 'brands'), schemasDir: join(root, 'schemas') })));
  return findingsOf(snapshotFiles(snapshot), new ProjectLayout(snapshot.layout)).map((finding) => JSON.stringify(finding));
}

function cliFindings(root: string): string[] {
  const lines: string[] = [];
  runValidate(['--root', root, '--format', 'json'], (line) => lines.push(line));
  return lines;
}

describe("the studio's findings are CI's", () => {
  it.each(readdirSync(INVALID).filter((f) => f.endsWith('.json')))('%s', (fixture) => {
    const root = projectWith(fixture);
    const cli = cliFindings(root);
    expect(cli.some((line) => line.includes('"severity":"error"')), 'the fixture is broken').toBe(true);
    expect(studioFindings(root)).toEqual(cli);
  });

  it('and on pictures as bytes: a PNG logo that is fine, and one too small', async () => {
    const root = copyProject();
    roots.push(root);
    const png = (width: number, height: number) => sharp({ create: { width, height, channels: 4, background: '#5a2d82' } }).png().toBuffer();
    writeFileSync(join(root, 'brands/assets/ilve-logo.png'), await png(320, 80));
    writeFileSync(join(root, 'brands/assets/ilve-favicon.png'), await png(8, 8));
    const brand = JSON.parse(readFileSync(join(root, 'brands/ilve.json'), 'utf8'));
    writeFileSync(join(root, 'brands/ilve.json'), JSON.stringify({ ...brand, logo: 'assets/ilve-logo.png', favicon: 'assets/ilve-favicon.png' }, null, 2));
    const cli = cliFindings(root);
    expect(cli.filter((line) => line.includes('"severity":"error"')), 'only the favicon is refused').toHaveLength(1);
    expect(studioFindings(root)).toEqual(cli);
  });
});
