import type { Brand } from './types.ts';

/**
 * A brand file names its form under "form"; "variant", the key's former
 * name, still works (npm run validate asks to rename it). Inside the code
 * the Brand keeps calling it `variant`.
 */
export const FORM_KEY = 'form';
export const FORMER_FORM_KEY = 'variant';

/** The form a brand file's data names, under either key ("form" first). */
export function brandFormName(data: Readonly<Record<string, unknown>>): unknown {
  return data[FORM_KEY] ?? data[FORMER_FORM_KEY];
}

/** A parsed brand file as the portal's Brand: the form it names becomes `variant`. */
export function brandFromFile(data: Readonly<Record<string, unknown>>): Brand {
  const { [FORM_KEY]: form, ...rest } = data;
  return (form === undefined ? rest : { ...rest, [FORMER_FORM_KEY]: form }) as unknown as Brand;
}
