/** An address as mail servers and parsers quote it (`<anna+x@müller.be>`), names and domains in any script. */
const MAILBOX = /[\p{L}\p{N}._%+!#$&'*=?^`{|}~-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*/gu;

/** The secret half of a signed photo link: whoever has its query has the photo. */
const LINK_QUERY = /([?&](?:signature|expires)=)[^&\s"'<>]*/g;

/** V8's JSON.parse quotes the text it could not read: `Unexpected token 'x', "{"last_name": …" is not valid JSON`. */
const JSON_SNIPPET = /(?:\.\.\.)?"[\s\S]*" is not valid JSON/g;

/**
 * Free text bound for the log (error messages, stack traces, reasons) with
 * what a person typed or may open taken out: e-mail addresses (an SMTP
 * `550 <anna@x> unknown` quotes them), signed photo link queries, and the
 * input a JSON parser quotes. Names or streets in free text cannot be told
 * from other words; they only reach the log through such quotes.
 */
export function scrubText(text: string): string {
  return text.replace(JSON_SNIPPET, '"[input]" is not valid JSON').replace(LINK_QUERY, '$1[redacted]').replace(MAILBOX, '[email]');
}
