/**
 * `npm run brand -- new <id> --like <existing id> [--name "Acme"] [--root <dir>]`:
 * starts a brand as a copy of another (brand file, logo, favicon), with the
 * copied details marked as placeholders, then runs npm run validate.
 */
import { fileURLToPath } from 'node:url';
import { newBrand } from './brand/new-brand';
import { runValidate } from './validate';
import { optionValue } from './option-value';

const defaultRoot = fileURLToPath(new URL('../../', import.meta.url));
const USAGE = 'Usage: npm run brand -- new <id> --like <existing id> [--name "Brand name"]\n  e.g. npm run brand -- new acme --like fratelli';

/** Runs the command; returns the exit status. */
export function runBrand(argv: readonly string[], out: (line: string) => void = console.log): number {
  const [command, id] = argv;
  const like = optionValue(argv, '--like');
  if (command !== 'new' || !id || id.startsWith('--') || !like) {
    out(USAGE);
    return 2;
  }
  const root = optionValue(argv, '--root') ?? defaultRoot;
  const result = newBrand({ root, id, like, name: optionValue(argv, '--name') });
  if (!result.ok) {
    out(`Nothing was changed: ${result.message}`);
    return 1;
  }
  out(`Created ${result.created.join(', ')} as a copy of ${like}.`);
  out(`The copied colours, pictures, footer details and web addresses are placeholders: "notes" in brands/${id}.json lists them.\n`);
  const status = runValidate(['--root', root], out);
  out(
    `\nNext: edit brands/${id}.json (your editor explains each field when you hover over it), ` +
      `replace the pictures in brands/assets/, and watch the result with npm run dev ` +
      `(its first page lists every brand; ${id} is at /${id}/nl/<country>). See docs/adding-a-brand.md.`,
  );
  return status;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = runBrand(process.argv.slice(2));
}
