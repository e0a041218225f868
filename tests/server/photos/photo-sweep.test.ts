import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStorage } from '../../../src/server/storage/open-storage';
import type { Storage } from '../../../src/server/storage/port';
import { probeDatabase, type DatabaseProbe } from '../../support/database-probe';
import { storedPhoto } from '../../support/stored-photo';
import { BACKEND, backendEnv } from '../../support/backend';

let dir: string;
let storage: Storage;
let probe: DatabaseProbe;
let drop: () => Promise<void>;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'photo-sweep-'));
  const backend = await backendEnv();
  drop = backend.drop;
  const where = { dataDir: dir, databaseUrl: backend.env.DATABASE_URL ?? '' };
  storage = await openStorage({ ...where, databasePoolSize: 2 });
  probe = probeDatabase(where);
});
afterEach(async () => {
  await storage.close();
  await probe.close();
  await drop();
  rmSync(dir, { recursive: true, force: true });
});

const photoMadeAt = (createdAt: number) => storedPhoto(storage.photos, { bytes: 'jpeg', createdAt });

describe('unused photo sweep', () => {
  it('removes photos no request used within the TTL, and keeps used and recent ones', async () => {
    const now = 1_000_000_000;
    const ttl = 60_000;
    const old = await photoMadeAt(now - ttl - 1);
    const recent = await photoMadeAt(now - 1000);
    const used = await photoMadeAt(now - ttl - 1);
    const [request] = await probe.all<{ id: number }>(
      `INSERT INTO requests (reference, brand, variant, locale, payload, payload_hash, created_at) VALUES ('r', 'ilve', 'simple', 'nl', '{}', 'h', 0) RETURNING id`,
    );
    await probe.run('UPDATE photos SET request_id = ? WHERE name = ?', [request.id, used]);

    expect(await storage.photos.removeUnclaimedBefore(now - ttl)).toBe(1);
    expect(await storage.photos.read(old)).toBeUndefined();
    expect(await storage.photos.read(recent)).toEqual(Buffer.from('jpeg'));
    expect(await storage.photos.read(used)).toEqual(Buffer.from('jpeg'));
    const names = await probe.all<{ name: string }>('SELECT name FROM photos ORDER BY name');
    expect(names.map((r) => r.name)).toEqual([recent, used].sort());
  });

  it.runIf(BACKEND === 'sqlite')('removes temp files and old unregistered files at start-up', async () => {
    const folder = join(dir, 'photos');
    const kept = await photoMadeAt(Date.now());
    writeFileSync(join(folder, '.tmp-crashed'), 'x');
    writeFileSync(join(folder, 'stray.jpg'), 'x');
    utimesSync(join(folder, 'stray.jpg'), new Date(0), new Date(0));
    await storage.photos.tidy(60_000);
    expect(existsSync(join(folder, '.tmp-crashed'))).toBe(false);
    expect(existsSync(join(folder, 'stray.jpg'))).toBe(false);
    expect(existsSync(join(folder, kept))).toBe(true);
  });
});
