import type { Migration } from './migrate';

// PostgreSQL's version 6 records where the mail files are; SQLite's are always beside its database, in DATA_DIR.
export const sqlite: Migration = { version: 6, name: 'where the mail files are', statements: [] };

export const postgres: Migration = {
  version: 6,
  name: 'where the mail files are',
  statements: [
    // A staff command run elsewhere (erase, without the server's DATA_DIR) finds the .eml files here, or refuses.
    'CREATE TABLE portal_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)',
  ],
};
