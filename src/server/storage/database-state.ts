/** Where the database's changes of state are told (the app's logger). */
export interface StateLog {
  error(data: object, message: string): void;
  info(data: object, message: string): void;
}

/**
 * Whether the database answers, as the last calls found it. A change is told
 * once: "database unreachable" when a call first fails to reach it, "database
 * back after N s" when one first succeeds again; the calls in between say
 * nothing more (an outage of a minute at 40 polls a second is one line, not
 * two thousand stack traces).
 */
export class DatabaseState {
  private downSince: number | undefined;

  constructor(private readonly log: StateLog = { error() {}, info() {} }) {}

  get up(): boolean {
    return this.downSince === undefined;
  }

  unreachable(error: Error): void {
    if (this.downSince !== undefined) return;
    this.downSince = Date.now();
    this.log.error({ reason: error.message }, 'database unreachable');
  }

  answered(): void {
    if (this.downSince === undefined) return;
    const seconds = (Date.now() - this.downSince) / 1000;
    this.downSince = undefined;
    this.log.info({ seconds }, `database back after ${seconds.toFixed(1)} s`);
  }
}
