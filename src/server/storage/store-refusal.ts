/**
 * Why a staff command will not act on the configured store, said in one line:
 * `missing` (no database there, or one without the portal's tables),
 * `unreachable` (PostgreSQL does not answer), `version` (another release's schema).
 */
export class StoreRefusal extends Error {
  constructor(
    readonly kind: 'missing' | 'unreachable' | 'version',
    message: string,
  ) {
    super(message);
  }
}
