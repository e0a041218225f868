import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { brandFromFile } from '../core/brand-file';
import { indexBrands } from '../core/brands';
import { deliveryUrlProblem } from '../core/delivery-url';
import { brandLocales } from '../core/locale';
import type { Brand } from '../core/types';
import { ConfigError } from './config-error';
import type { PortalData } from './portal-data';

/** What a brand file names that the portal's data must have: its form, its languages, its countries. */
function unknownNames(brand: Brand, { forms, languages, countries }: Pick<PortalData, 'forms' | 'languages' | 'countries'>): string[] {
  return [
    ...(forms.has(brand.form) ? [] : [`the form "${brand.form}"`]),
    ...[...brandLocales(brand), brand.serviceDesk.language].filter((l) => !languages.has(l)).map((l) => `the language "${l}"`),
    ...brand.countries.filter((c) => !countries.has(c)).map((c) => `the country "${c}"`),
  ];
}

/** Reads brands/*.json once at start (a new brand is a new file and a restart). */
export async function loadBrands(dir: string, data: Pick<PortalData, 'forms' | 'languages' | 'countries'>): Promise<Map<string, Brand>> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  const brands = await Promise.all(
    files.map(async (file) => {
      const brand = brandFromFile(JSON.parse(await readFile(join(dir, file), 'utf8')) as Record<string, unknown>);
      if (brand.id !== basename(file, '.json')) throw new Error(`brands/${file}: id "${brand.id}" must equal the file name`);
      // Requests of a brand without a desk would reach no one: refuse to serve it (npm run validate explains).
      if (!brand.serviceDesk?.emails?.length) throw new ConfigError(`brands/${file} has no serviceDesk.emails; run npm run validate`);
      const webhook = brand.serviceDesk.webhook;
      const problem = webhook && deliveryUrlProblem(webhook.url, webhook.allowPrivateNetwork === true);
      if (problem) throw new ConfigError(`brands/${file} serviceDesk.webhook.url: ${problem}`);
      const unknown = unknownNames(brand, data);
      if (unknown.length > 0) throw new ConfigError(`brands/${file} names ${unknown.join(', ')}, which schemas/ does not have; run npm run validate`);
      return brand;
    }),
  );
  return indexBrands(brands);
}
