/** The two storage backends: SQLite in DATA_DIR (default) and PostgreSQL (DATABASE_URL). */
export type Dialect = 'sqlite' | 'postgres';

export type Param = string | number | null | Buffer;

/**
 * The few calls the portal's queries need, on either backend. Queries use
 * `?` placeholders (numbered for PostgreSQL by its adapter); where the two
 * dialects differ, the fragments below say it once.
 */
export interface Sql {
  readonly dialect: Dialect;
  /** Rows of a query (or of a write with RETURNING). */
  all<T>(text: string, params?: readonly Param[]): Promise<T[]>;
  /** A write; resolves to the number of rows it changed. */
  run(text: string, params?: readonly Param[]): Promise<number>;
  /** Several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** `IN <idsIn(sql)>` with one parameter, the ids as a JSON array: any number of ids without building SQL. */
export function idsIn(sql: Sql): string {
  return sql.dialect === 'postgres' ? '(SELECT json_array_elements_text(?::json)::bigint)' : '(SELECT value FROM json_each(?))';
}

/** `IN <textsIn(sql)>`: as idsIn, for texts (references, photo names). */
export function textsIn(sql: Sql): string {
  return sql.dialect === 'postgres' ? '(SELECT json_array_elements_text(?::json))' : '(SELECT value FROM json_each(?))';
}

/** A text field of a JSON column. */
export function jsonText(sql: Sql, column: string, field: string): string {
  return sql.dialect === 'postgres' ? `(${column}::json ->> '${field}')` : `json_extract(${column}, '$.${field}')`;
}

/** A boolean literal: SQLite has none and compares with 1 and 0. */
export function bool(sql: Sql, value: boolean): string {
  if (sql.dialect === 'postgres') return value ? 'TRUE' : 'FALSE';
  return value ? '1' : '0';
}
