import type { Brand } from './types.ts';

/**
 * A brand file names its form under "form"; "variant", the key's former
 * name, still works in files written before the rename (npm run validate
 * asks to rename it). The Brand calls it `form`, as the file does.
 */
export const FORM_KEY = 'form';
export const FORMER_FORM_KEY = 'variant';

/** The form a brand file's data names, under either key ("form" first). */
export function brandFormName(data: Readonly<Record<string, unknown>>): unknown {
  return data[FORM_KEY] ?? data[FORMER_FORM_KEY];
}

/** A parsed brand file as the portal's Brand: a file of before the rename has its form moved to "form". */
export function brandFromFile(data: Readonly<Record<string, unknown>>): Brand {
  const { [FORMER_FORM_KEY]: _former, ...rest } = data;
  const form = brandFormName(data);
  return (form === undefined ? rest : { ...rest, [FORM_KEY]: form }) as unknown as Brand;
}
