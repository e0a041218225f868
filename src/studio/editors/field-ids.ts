/** rjsf's id of the field at a JSON pointer ("/theme/primary" → root_theme_primary): its default prefix and separator. */
export function fieldIdOf(segments: readonly string[]): string {
  return ['root', ...segments].join('_');
}

/** The control of the field a pointer names, or of the nearest field around it that the form shows. */
export function controlOf(doc: Document, segments: readonly string[]): HTMLElement | undefined {
  for (let depth = segments.length; depth >= 0; depth--) {
    const element = doc.getElementById(fieldIdOf(segments.slice(0, depth)));
    if (!element) continue;
    const control = element.matches('input, select, textarea, button') ? element : element.querySelector<HTMLElement>('input, select, textarea, button');
    return control ?? element;
  }
  return undefined;
}
