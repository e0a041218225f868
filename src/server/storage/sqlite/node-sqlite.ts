import type * as NodeSqlite from 'node:sqlite';

const EXPERIMENTAL = 'SQLite is an experimental feature';

/**
 * node:sqlite, loaded when first used rather than imported: an import would
 * stop an older Node at link time, before the entry points' version check
 * (src/cli/supported-node.mjs) could say which Node to use. Node 22 also
 * calls the module experimental on every start (24 and 26 do not): that one
 * warning is dropped, since operators would chase it; any other passes.
 */
export function nodeSqlite(): typeof NodeSqlite {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: never[]) => {
    if (typeof warning === 'string' && warning.startsWith(EXPERIMENTAL)) return;
    emit.call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return process.getBuiltinModule('node:sqlite');
  } finally {
    process.emitWarning = emit;
  }
}
