/** A setting that cannot be used: `npm start` says which in one line and stops. Below config.ts, so the parts it configures can raise it too. */
export class ConfigError extends Error {}

/** The environment as the server reads it: process.env, or a test's own. */
export type Env = Record<string, string | undefined>;
