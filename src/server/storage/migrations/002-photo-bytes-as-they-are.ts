import type { Migration } from './migrate';

export const sqlite: Migration = { version: 2, name: 'photo bytes stored as they are', statements: [] };

export const postgres: Migration = {
  version: 2,
  name: 'photo bytes stored as they are',
  // JPEG and PNG are compressed already: PostgreSQL's attempt to compress them again only costs CPU.
  statements: ['ALTER TABLE photos ALTER COLUMN data SET STORAGE EXTERNAL'],
};
