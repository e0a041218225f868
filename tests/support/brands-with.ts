import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Brand, ServiceDesk } from '../../src/core/types';
import { SPEC_BRANDS_DIR as BRANDS } from './data-folders';

/** A copy of the spec's brand files in a temp folder, with some brands' service desks changed (e.g. to add a webhook). */
export function brandsWith(desks: Record<string, Partial<ServiceDesk>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'brands-'));
  for (const file of readdirSync(BRANDS).filter((f) => f.endsWith('.json'))) {
    const brand = JSON.parse(readFileSync(join(BRANDS, file), 'utf8')) as Brand;
    const desk = desks[brand.id];
    if (desk) brand.serviceDesk = { ...brand.serviceDesk, ...desk };
    writeFileSync(join(dir, file), JSON.stringify(brand));
  }
  return dir;
}
