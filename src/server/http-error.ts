/** An error whose status and message are safe to show the client as they are. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details: Record<string, unknown> = {},
    /** For a refusal that passes (busy, over a quota): when to try again. */
    readonly headers: { retryAfterSeconds?: number } = {},
  ) {
    super(message);
  }
}
