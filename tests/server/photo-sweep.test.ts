import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PhotoFolder } from '../../src/server/photos/photo-folder';
import { sweepUnusedPhotos } from '../../src/server/photos/photo-sweep';
import { openDatabase, type Db } from '../../src/server/storage/database';
import { PhotoRegistry } from '../../src/server/storage/photo-registry';

let dir: string;
let db: Db;
let registry: PhotoRegistry;
let folder: PhotoFolder;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'photo-sweep-'));
  db = openDatabase(dir);
  registry = new PhotoRegistry(db);
  folder = new PhotoFolder(join(dir, 'photos'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function storedPhoto(name: string, createdAt: number): string {
  writeFileSync(folder.pathOf(name), 'jpeg');
  registry.register(name, '192.0.2.1', 4, createdAt);
  return name;
}

describe('unused photo sweep', () => {
  it('removes photos no request used within the TTL, and keeps used and recent ones', async () => {
    const now = 1_000_000_000;
    const ttl = 60_000;
    const old = storedPhoto('old.jpg', now - ttl - 1);
    const recent = storedPhoto('recent.jpg', now - 1000);
    const used = storedPhoto('used.jpg', now - ttl - 1);
    db.prepare(`INSERT INTO requests (reference, brand, variant, locale, payload, payload_hash, created_at) VALUES ('r', 'ilve', 'simple', 'nl', '{}', 'h', 0)`).run();
    db.prepare('UPDATE photos SET request_id = 1 WHERE name = ?').run(used);

    expect(await sweepUnusedPhotos(registry, folder, ttl, now)).toBe(1);
    expect(existsSync(folder.pathOf(old))).toBe(false);
    expect(existsSync(folder.pathOf(recent))).toBe(true);
    expect(existsSync(folder.pathOf(used))).toBe(true);
    expect([...registry.allNames()].sort()).toEqual(['recent.jpg', 'used.jpg']);
  });

  it('removes temp files and old unregistered files at start-up', async () => {
    writeFileSync(join(folder.dir, '.tmp-crashed'), 'x');
    writeFileSync(folder.pathOf('stray.jpg'), 'x');
    utimesSync(folder.pathOf('stray.jpg'), new Date(0), new Date(0));
    const kept = storedPhoto('kept.jpg', Date.now());
    expect(await folder.removeStrays(registry.allNames(), 60_000)).toBe(2);
    expect(existsSync(folder.pathOf(kept))).toBe(true);
  });
});
