import { createHash } from 'node:crypto';
import { formRevision, revisionLanguages, revisionModel, type FormRevision } from '../../core/form-revision';
import type { FormModel } from '../../core/form-model';
import type { Languages } from '../../core/texts';
import type { Variant } from '../../core/types';
import type { PortalData } from '../portal-data';
import type { Storage } from '../storage/port';
import type { FormRevisionRow } from '../storage/records';

/** A stored request's form as it was sent: its fields, roles and photos, and the words it is read in. */
export interface RequestForm {
  model: FormModel;
  languages: Languages;
}

/** What a reader knows of a stored request to find its form. */
export interface StoredForm {
  variant: string;
  form_revision: string | null;
}

/** JSON with every object's keys in order: the same content is the same text, and so the same id, on every instance. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, node: unknown) =>
    node !== null && typeof node === 'object' && !Array.isArray(node)
      ? Object.fromEntries(Object.entries(node).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : node,
  );
}

/** A revision's id: 128 bits of the SHA-256 of its definition. */
export const revisionId = (definition: string): string => createHash('sha256').update(definition).digest('hex').slice(0, 32);

/**
 * The forms requests are stored with and read by: today's revision of each
 * form (which a new request records), and any revision a stored request
 * names, read from storage once and kept (a revision never changes).
 */
export class FormRevisions {
  private readonly today = new Map<Variant, Omit<FormRevisionRow, 'created_at'>>();
  private readonly read = new Map<string, Promise<RequestForm | undefined>>();

  constructor(
    private readonly data: Pick<PortalData, 'forms' | 'languages'>,
    private readonly storage: Pick<Storage, 'formRevisions'>,
  ) {
    for (const [variant, model] of data.forms) {
      const definition = canonicalJson(formRevision(model, data.languages));
      const id = revisionId(definition);
      this.today.set(variant, { id, variant, definition });
      // Today's revision is read as today's form: the same fields, and the same words.
      this.read.set(id, Promise.resolve({ model, languages: data.languages }));
    }
  }

  /** The revision a request checked against today's form of `variant` is stored with. */
  currentId(variant: Variant): string {
    const found = this.today.get(variant);
    if (!found) throw new Error(`no form variant ${variant} in schemas/forms`);
    return found.id;
  }

  /** Stores today's revisions (the server, at start); requests stored without one get theirs. How many did. */
  register(storage: Pick<Storage, 'registerFormRevisions'>, now = Date.now()): Promise<number> {
    return storage.registerFormRevisions([...this.today.values()], now);
  }

  /**
   * The form a stored request was sent with. A request stored without a revision (before version 8,
   * not yet given one by a server's start) is read by today's form of its variant; undefined when
   * that is gone too.
   */
  async of(request: StoredForm): Promise<RequestForm | undefined> {
    const id = request.form_revision;
    if (id === null) {
      const model = this.data.forms.get(request.variant);
      return model && { model, languages: this.data.languages };
    }
    let found = this.read.get(id);
    if (!found) {
      found = this.load(id);
      this.read.set(id, found);
      // A database that did not answer is asked again next time.
      found.catch(() => this.read.delete(id));
    }
    return found;
  }

  /** The words a stored request is read in: its form's, or today's where its form is unknown. */
  async languagesOf(request: StoredForm): Promise<Languages> {
    return (await this.of(request))?.languages ?? this.data.languages;
  }

  private async load(id: string): Promise<RequestForm | undefined> {
    const [row] = await this.storage.formRevisions([id]);
    if (!row) return undefined;
    const revision = JSON.parse(row.definition) as FormRevision;
    return { model: revisionModel(revision), languages: revisionLanguages(revision, this.data.languages) };
  }
}
