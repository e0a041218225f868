import { postedFormData } from '../../core/form-post';
import type { FormSchema } from '../../core/form-schema';
import type { RepairFormData } from '../../core/types';

/**
 * What the customer typed into the prerendered form before the scripts ran:
 * React hydrates over those controls without reading them, so their values
 * are read here, as the server reads a post (core/form-post.ts), and only
 * those that differ from the state the page started with are returned.
 */
export function typedBeforeHydration(form: HTMLFormElement, schema: FormSchema, start: RepairFormData): RepairFormData {
  const texts = [...new FormData(form)].filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  const typed = Object.entries(postedFormData(texts, schema)).filter(
    ([name, value]) => (start as Record<string, unknown>)[name] !== value,
  );
  return Object.fromEntries(typed) as RepairFormData;
}

/** Photos chosen in the prerendered form's pickers before the scripts ran: [picker id, file]. */
export function photosChosenBeforeHydration(form: HTMLFormElement): [string, File][] {
  return [...form.querySelectorAll<HTMLInputElement>('input[type="file"]')].flatMap((input) =>
    input.files?.[0] ? [[input.id, input.files[0]] as [string, File]] : [],
  );
}
