/** A request to show a place of a file: a finding's line and column in the JSON text, or its field. */
export interface Reveal {
  path: string;
  /** Where: the JSON text at line and column, or the field the pointer names. */
  target: 'json' | 'fields';
  line?: number;
  column?: number;
  pointer: string;
  /** A new number for each request, so the same place can be asked for twice. */
  seq: number;
}
