/**
 * `npm run language -- new <code> [--name "Deutsch"] [--intl de-BE] [--root <dir>]`:
 * starts a language as a file holding only its name and date locale, then
 * runs npm run validate, which counts the texts still to translate.
 */
import { fileURLToPath } from 'node:url';
import { newLanguage } from './language/new-language';
import { runValidate } from './validate';
import { optionValue } from './option-value';

const defaultRoot = fileURLToPath(new URL('../../', import.meta.url));
const USAGE = 'Usage: npm run language -- new <code> [--name "Deutsch"] [--intl de-BE]\n  e.g. npm run language -- new de';

/** Runs the command; returns the exit status. */
export function runLanguage(argv: readonly string[], out: (line: string) => void = console.log): number {
  const [command, code] = argv;
  if (command !== 'new' || !code || code.startsWith('--')) {
    out(USAGE);
    return 2;
  }
  const root = optionValue(argv, '--root') ?? defaultRoot;
  const result = newLanguage({ root, code, name: optionValue(argv, '--name'), intl: optionValue(argv, '--intl') });
  if (!result.ok) {
    out(`Nothing was changed: ${result.message}`);
    return 1;
  }
  const other = optionValue(argv, '--intl') === undefined ? ` (--intl chooses another, e.g. ${code}-BE)` : '';
  out(`Created ${result.file}: "${result.name}" (the language switch shows it), dates written as ${result.intl}${other}.`);
  out('Every other text still shows in Dutch; validate counts them:\n');
  const status = runValidate(['--root', root], out);
  out(
    `\nNext: copy texts from schemas/i18n/nl.json into ${result.file}, at the same place, and translate them ` +
      `(npm run validate -- --fallbacks lists those still in Dutch); then offer the language in a brand file: ` +
      `"locales": ["nl", "fr", "${code}"]. See docs/forms-as-data.md.`,
  );
  return status;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = runLanguage(process.argv.slice(2));
}
