/** An error whose status and message are safe to show the client as they are. */
export class HttpError extends Error {
  /** What the client is told instead of the message, in its language; the log keeps the message (one reason, one line). */
  said?: string;

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
