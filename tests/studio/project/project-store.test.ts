import { describe, expect, it } from 'vitest';
import { ProjectLayout } from '../../../src/studio/project/layout';
import { ProjectStore } from '../../../src/studio/project/project-store';

/** A browser's storage, as localStorage keeps it across a reload; `full` refuses every write, as a full quota does. */
class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  full = false;
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    if (this.full) throw new DOMException('quota', 'QuotaExceededError');
    this.items.set(key, value);
  }
}

const layout = new ProjectLayout({ brandsDir: 'brands', schemasDir: 'schemas', rulesDir: 'schemas' });
const base = new Map<string, string | Uint8Array>([
  ['brands/acme.json', '{"id":"acme"}\n'],
  ['brands/assets/acme-logo.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47])],
]);

describe('the edits live in the browser until handed over', () => {
  it('a reload finds every edit: texts, pictures as bytes, removed files', () => {
    const storage = new MemoryStorage();
    const store = new ProjectStore(base, 'abc', layout, storage);
    store.write({ 'brands/acme.json': '{"id":"acme","name":"Acme"}\n', 'brands/assets/acme-logo.png': new Uint8Array([1, 2, 3]), 'brands/new.json': '{}' });
    store.write({ 'brands/new.json': undefined });
    const reloaded = new ProjectStore(base, 'abc', layout, storage);
    expect(reloaded.files().get('brands/acme.json')).toBe('{"id":"acme","name":"Acme"}\n');
    expect(reloaded.files().get('brands/assets/acme-logo.png')).toEqual(new Uint8Array([1, 2, 3]));
    expect(reloaded.files().has('brands/new.json')).toBe(false);
    expect(reloaded.changes().map((c) => c.path)).toEqual(['brands/acme.json', 'brands/assets/acme-logo.png']);
    expect(reloaded.movedFrom).toBeUndefined();
  });

  it('an edit back to what the project had is no change; discard forgets all', () => {
    const store = new ProjectStore(base, 'abc', layout, new MemoryStorage());
    store.write({ 'brands/acme.json': 'x' });
    store.write({ 'brands/acme.json': '{"id":"acme"}\n' });
    expect(store.changes()).toEqual([]);
    store.write({ 'brands/acme.json': 'x' });
    store.discard();
    expect(store.files()).toEqual(base);
  });

  it('a studio built from a later commit keeps the edits and says the project moved on', () => {
    const storage = new MemoryStorage();
    new ProjectStore(base, 'abc', layout, storage).write({ 'brands/acme.json': 'x' });
    const later = new ProjectStore(base, 'def', layout, storage);
    expect(later.movedFrom).toBe('abc');
    expect(later.files().get('brands/acme.json')).toBe('x');
  });

  it('a storage that refuses the edits keeps them in the tab, and says so', () => {
    const storage = new MemoryStorage();
    const store = new ProjectStore(base, 'abc', layout, storage);
    storage.full = true;
    store.write({ 'brands/acme.json': 'x' });
    expect(store.notKept).toBe(true);
    expect(store.files().get('brands/acme.json')).toBe('x');
    storage.full = false;
    store.write({ 'brands/acme.json': 'y' });
    expect(store.notKept).toBe(false);
  });
});
