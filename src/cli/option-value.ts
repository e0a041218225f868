/** The value after `--name` in a command's arguments (`--root <dir>`), or undefined when it is not given. */
export function optionValue(argv: readonly string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}
