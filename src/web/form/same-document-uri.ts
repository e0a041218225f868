/**
 * Stands in for fast-uri where @rjsf/utils imports it (the build's plugin
 * src/cli/vite/same-document-uri.ts), to resolve `$ref` and `$id` across
 * documents: 7.8 kB gzip on every brand page. The portal's form schemas refer only within themselves
 * (`npm run validate` refuses any other `$ref`), so resolving `#…` against a
 * base is all that can occur; anything else fails loudly.
 */
function resolve(base: string, ref: string): string {
  if (ref.startsWith('#')) return `${base.split('#')[0]}${ref}`;
  throw new Error(`The form schemas refer only within themselves; cannot resolve "${ref}".`);
}

function equal(a: string, b: string): boolean {
  return a.replace(/#$/, '') === b.replace(/#$/, '');
}

export default { resolve, equal };
