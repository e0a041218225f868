/**
 * A server's start reads a stored form revision only when a request needs
 * it: a store holding many revisions (each form change of years) made every
 * start parse them all (+45 MB at 202 revisions), though every request
 * named its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadPortalData } from '../../../src/server/portal-data';
import { canonicalJson, FormRevisions, revisionId } from '../../../src/server/revisions/form-revisions';
import { openStorage } from '../../../src/server/storage/open-storage';
import type { Storage } from '../../../src/server/storage/port';
import { buildTestApp, injectSubmit, injectUpload, png, simpleRequest, type TestServer } from '../helpers';

let server: TestServer | undefined;
let staff: Storage | undefined;
afterEach(async () => {
  await staff?.close();
  await server?.dispose();
  [server, staff] = [undefined, undefined];
});

/** The storage, telling how many revision definitions were read through it. */
function counting(storage: Storage): { storage: Storage; read: () => number } {
  let read = 0;
  const counted = new Proxy(storage, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (name === 'allFormRevisions') return async () => (await target.allFormRevisions()).map((row) => (read++, row));
      if (name === 'formRevisions') return async (ids: string[]) => (await target.formRevisions(ids)).map((row) => (read++, row));
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { storage: counted, read: () => read };
}

/** `n` earlier revisions of the simple form, as years of form changes leave them (a field's title changed each time). */
async function earlierRevisions(storage: Storage, n: number): Promise<void> {
  const data = loadPortalData(server!.config.schemasDir);
  const today = JSON.parse(canonicalJson({ variant: 'simple', schema: data.forms.get('simple')!.schema, uiSchema: data.forms.get('simple')!.uiSchema })) as Record<string, unknown>;
  const rows = Array.from({ length: n }, (_, i) => {
    const definition = canonicalJson({ ...today, note: `change ${i}`, padding: 'x'.repeat(50_000) });
    return { id: revisionId(definition), variant: 'simple', definition };
  });
  await storage.registerFormRevisions(rows, Date.now() - 86_400_000);
}

async function started(): Promise<{ storage: Storage; read: () => number; forms: FormRevisions }> {
  server = await buildTestApp();
  staff = await openStorage({ dataDir: server.config.dataDir, databaseUrl: server.config.databaseUrl, databasePoolSize: 2 }, { existing: true });
  await earlierRevisions(staff, 202);
  return { ...counting(staff), forms: new FormRevisions(loadPortalData(server.config.schemasDir), staff) };
}

describe('form revisions at start', () => {
  it('with 202 stored and every request naming its own, reads none of them', async () => {
    const { storage, read, forms } = await started();
    const [a, b] = [await injectUpload(server!.app, await png()), await injectUpload(server!.app, await png())];
    expect((await injectSubmit(server!.app, 'ilve', simpleRequest(a, b))).statusCode).toBe(201);
    expect(await forms.register(storage)).toBe(0);
    expect(read()).toBe(0);
  });

  it('a request stored without one is given today\'s, which needs no stored definition read', async () => {
    const { storage, read, forms } = await started();
    const [a, b] = [await injectUpload(server!.app, await png()), await injectUpload(server!.app, await png())];
    expect((await injectSubmit(server!.app, 'ilve', simpleRequest(a, b))).statusCode).toBe(201);
    await server!.sql.run('UPDATE requests SET form_revision = NULL');
    expect(await forms.register(storage)).toBe(1);
    expect(read()).toBe(0);
    expect(await server!.sql.all('SELECT id FROM requests WHERE form_revision = ?', [forms.currentId('simple')])).toHaveLength(1);
  });
});
