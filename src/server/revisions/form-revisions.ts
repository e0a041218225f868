import { createHash } from 'node:crypto';
import { fitsForm, formRevision, revisionLanguages, revisionModel, type FormRevision } from '../../core/form-revision';
import type { FormModel } from '../../core/form-model';
import type { Languages } from '../../core/texts';
import type { FormName } from '../../core/types';
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
  /** The request as JSON: a request stored without a revision is read by a form only if it fits it. */
  payload: string;
}

/** Requests given a revision per page, at start. */
const PAGE = 500;

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
  private readonly today = new Map<FormName, Omit<FormRevisionRow, 'created_at'>>();
  private readonly read = new Map<string, Promise<RequestForm | undefined>>();

  constructor(
    private readonly data: Pick<PortalData, 'forms' | 'languages'>,
    private readonly storage: Pick<Storage, 'formRevisions'>,
  ) {
    for (const [formName, model] of data.forms) {
      const definition = canonicalJson(formRevision(model, data.languages));
      const id = revisionId(definition);
      this.today.set(formName, { id, variant: formName, definition });
      // Today's revision is read as today's form: the same fields, and the same words.
      this.read.set(id, Promise.resolve({ model, languages: data.languages }));
    }
  }

  /** The revision a request checked against today's form named `formName` is stored with. */
  currentId(formName: FormName): string {
    const found = this.today.get(formName);
    if (!found) throw new Error(`no form ${formName} in schemas/forms`);
    return found.id;
  }

  /**
   * Stores today's revisions (the server, at start), then gives each request stored without one (before
   * version 8, or by an older release's instance during an upgrade) a stored revision of its form that
   * it fits: today's first, then the newest. One that fits none keeps none: its form is unknown, and it
   * is read as such (any address in it counts as the customer's; it is exported as stored). How many got one.
   * A start where every request has its revision reads no stored one (202 of them parsed at each start
   * took 45 MB).
   */
  async register(
    storage: Pick<Storage, 'registerFormRevisions' | 'formRevisionList' | 'formRevisions' | 'unrevisedRequests' | 'adoptFormRevision'>,
    now = Date.now(),
  ): Promise<number> {
    await storage.registerFormRevisions([...this.today.values()], now);
    // Read only once a request needs them, and then each only as far as the search for a fit goes.
    let candidates: Candidates | undefined;
    let adopted = 0;
    for (let after = 0; ; ) {
      const page = await storage.unrevisedRequests(after, PAGE);
      if (page.length > 0) candidates ??= new Candidates(await storage.formRevisionList(), storage, this.data.forms, this.today);
      const byRevision = new Map<string, number[]>();
      for (const request of page) {
        const fit = await candidates!.fit(request.variant, JSON.parse(request.payload) as Record<string, unknown>);
        if (fit) byRevision.set(fit, [...(byRevision.get(fit) ?? []), request.id]);
      }
      for (const [revision, ids] of byRevision) adopted += await storage.adoptFormRevision(revision, ids);
      if (page.length < PAGE) return adopted;
      after = page[page.length - 1].id;
    }
  }

  /**
   * The form a stored request was sent with. A request stored without a revision (one that fits none
   * stored, or one not yet given one by a server's start) is read by today's form of its name if it
   * fits it; else its form is unknown (undefined).
   */
  async of(request: StoredForm): Promise<RequestForm | undefined> {
    const id = request.form_revision;
    if (id === null) {
      const model = this.data.forms.get(request.variant);
      return model && fitsForm(model, JSON.parse(request.payload) as Record<string, unknown>) ? { model, languages: this.data.languages } : undefined;
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

/**
 * The revisions a request stored without one may be given, for register: of its form, today's first,
 * then the newest; each read and made a model only when the search reaches it, and kept for the next.
 */
class Candidates {
  private readonly models = new Map<string, Promise<FormModel | undefined>>();
  private readonly order: Omit<FormRevisionRow, 'definition'>[];

  constructor(
    list: Omit<FormRevisionRow, 'definition'>[],
    private readonly storage: Pick<Storage, 'formRevisions'>,
    forms: ReadonlyMap<FormName, FormModel>,
    today: ReadonlyMap<FormName, Omit<FormRevisionRow, 'created_at'>>,
  ) {
    const todayIds = new Set([...today.values()].map((r) => r.id));
    // Newest first (the store lists them oldest first), today's before all (a stable sort keeps the rest in order).
    this.order = [...list].reverse().sort((a, b) => Number(todayIds.has(b.id)) - Number(todayIds.has(a.id)));
    for (const [formName, row] of today) this.models.set(row.id, Promise.resolve(forms.get(formName)));
  }

  /** The id of the first revision of the form `formName` the request fits; undefined when none. */
  async fit(formName: string, payload: Record<string, unknown>): Promise<string | undefined> {
    for (const { id } of this.order.filter((row) => row.variant === formName)) {
      const model = await this.model(id);
      if (model && fitsForm(model, payload)) return id;
    }
    return undefined;
  }

  private model(id: string): Promise<FormModel | undefined> {
    let found = this.models.get(id);
    if (!found) {
      found = this.storage.formRevisions([id]).then(([row]) => (row ? revisionModel(JSON.parse(row.definition) as FormRevision) : undefined));
      this.models.set(id, found);
    }
    return found;
  }
}
