/**
 * A batch of the SQLite request writer: written whole when no item throws, and
 * item by item when one does, so that an item that throws (a photo claimed
 * meanwhile, a constraint, a bug) fails alone, leaves nothing behind, and
 * every other item of its batch is stored once.
 */
import { DatabaseSync } from 'node:sqlite';
import { beforeEach, describe, expect, it } from 'vitest';
import { batchTransaction, UndoItem } from '../../../../src/server/storage/sqlite/batch-transaction';

type Item = { name: string; then?: 'undo' | 'constraint' | 'bug' };

describe('SQLite batch transaction', () => {
  let db: DatabaseSync;
  let write: (items: Item[]) => ReturnType<ReturnType<typeof batchTransaction<Item, string>>>;

  beforeEach(() => {
    db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE rows (name TEXT NOT NULL UNIQUE); CREATE TABLE parts (name TEXT NOT NULL)');
    const row = db.prepare('INSERT INTO rows (name) VALUES (?)');
    const part = db.prepare('INSERT INTO parts (name) VALUES (?)');
    // Each item writes two rows, then maybe fails: what it wrote must not stay.
    write = batchTransaction(db, ({ name, then }: Item) => {
      row.run(name);
      part.run(name);
      if (then === 'undo') throw new UndoItem(`${name} undone`);
      if (then === 'constraint') row.run(name);
      if (then === 'bug') throw new TypeError(`${name} broke`);
      return `${name} stored`;
    });
  });

  const stored = (table: string) => (db.prepare(`SELECT name FROM ${table} ORDER BY rowid`).all() as { name: string }[]).map((r) => r.name);

  it('stores a batch in which nothing fails, in order', () => {
    expect(write([{ name: 'a' }, { name: 'b' }, { name: 'c' }])).toEqual(['a', 'b', 'c'].map((n) => ({ ok: true, value: `${n} stored` })));
    expect(stored('rows')).toEqual(['a', 'b', 'c']);
    expect(stored('parts')).toEqual(['a', 'b', 'c']);
    expect(db.isTransaction).toBe(false);
  });

  it('undoes only the items that throw, wherever they stand in the batch, and stores the others once', () => {
    const outcomes = write([{ name: 'a' }, { name: 'b', then: 'undo' }, { name: 'c' }, { name: 'd', then: 'constraint' }, { name: 'e', then: 'bug' }, { name: 'f' }]);
    expect(outcomes).toEqual([
      { ok: true, value: 'a stored' },
      { ok: true, value: 'b undone' },
      { ok: true, value: 'c stored' },
      { ok: false, error: expect.objectContaining({ message: expect.stringMatching(/UNIQUE constraint failed: rows\.name/) }) },
      { ok: false, error: expect.objectContaining({ message: 'e broke' }) },
      { ok: true, value: 'f stored' },
    ]);
    expect(stored('rows')).toEqual(['a', 'c', 'f']);
    expect(stored('parts')).toEqual(['a', 'c', 'f']);
    expect(db.isTransaction).toBe(false);
  });

  it('goes on writing whole batches after one that had to be written item by item', () => {
    write([{ name: 'a', then: 'undo' }, { name: 'b' }]);
    expect(write([{ name: 'c' }, { name: 'd' }])).toEqual(['c', 'd'].map((n) => ({ ok: true, value: `${n} stored` })));
    // The same name again fails alone: the batch before it is committed.
    expect(write([{ name: 'b' }, { name: 'e' }]).map((o) => o.ok)).toEqual([false, true]);
    expect(stored('rows')).toEqual(['b', 'c', 'd', 'e']);
  });

  it('keeps nothing of a batch whose commit fails, and throws for the whole batch', () => {
    // A foreign key checked at COMMIT: the commit itself fails, after every item was written.
    db.exec('CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED); PRAGMA foreign_keys = ON');
    const orphan = db.prepare('INSERT INTO child (parent) VALUES (999)');
    const failing = batchTransaction(db, (name: string) => {
      db.prepare('INSERT INTO rows (name) VALUES (?)').run(name);
      if (name === 'orphan') orphan.run();
      return name;
    });
    expect(() => failing(['x', 'orphan', 'y'])).toThrow(/FOREIGN KEY constraint failed/);
    expect(stored('rows')).toEqual([]);
    expect(db.isTransaction).toBe(false);
  });
});
