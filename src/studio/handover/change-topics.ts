import type { ChangedFile } from './changed-files.ts';

export type Verb = 'Add' | 'Change' | 'Remove';

/** What a group of files is to a brand owner: one brand, one language, one form, … */
export interface Topic {
  verb: Verb;
  /** Sorts topics: the kind's rank, then its id. */
  order: string;
  noun: string;
  /** The files, or for a brand's logo and favicon just those words. */
  labels: string[];
}

const VERB: Record<ChangedFile['status'], Verb> = { added: 'Add', modified: 'Change', deleted: 'Remove' };

interface Place {
  kind: 'brand' | 'language' | 'form' | 'fields' | 'countries' | 'other';
  id: string;
  role?: 'logo' | 'favicon';
}

// The data files the studio edits (issue 47); anything else is named by its path.
const PLACES: [RegExp, (m: RegExpMatchArray) => Place][] = [
  [/^brands\/([^/]+)\.json$/, (m) => ({ kind: 'brand', id: m[1] })],
  [/^brands\/assets\/(.+)-(logo|favicon)\.(svg|png)$/, (m) => ({ kind: 'brand', id: m[1], role: m[2] as 'logo' | 'favicon' })],
  [/^schemas\/i18n\/([^/]+)\.json$/, (m) => ({ kind: 'language', id: m[1] })],
  [/^schemas\/forms\/fields\.json$/, () => ({ kind: 'fields', id: '' })],
  [/^schemas\/forms\/([^/]+)\.(schema|ui)\.json$/, (m) => ({ kind: 'form', id: m[1] })],
  [/^schemas\/countries\.json$/, () => ({ kind: 'countries', id: '' })],
];
const RANK: Place['kind'][] = ['brand', 'language', 'form', 'fields', 'countries', 'other'];

function placeOf(path: string): Place {
  for (const [pattern, place] of PLACES) {
    const match = path.match(pattern);
    if (match) return place(match);
  }
  return { kind: 'other', id: path };
}

/** The change's files grouped into topics, in a fixed order: by verb, kind and id. */
export function changeTopics(files: ChangedFile[]): Topic[] {
  const groups = new Map<string, { place: Place; files: ChangedFile[] }>();
  for (const file of files) {
    const place = placeOf(file.path);
    const key = `${place.kind}:${place.id}`;
    const group = groups.get(key) ?? { place, files: [] };
    group.files.push(file);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ place, files: group }) => topic(place, group)).sort(byVerbThenOrder);
}

function byVerbThenOrder(a: Topic, b: Topic): number {
  const verbs: Verb[] = ['Add', 'Change', 'Remove'];
  return verbs.indexOf(a.verb) - verbs.indexOf(b.verb) || (a.order < b.order ? -1 : a.order > b.order ? 1 : 0);
}

function topic(place: Place, files: ChangedFile[]): Topic {
  const order = `${RANK.indexOf(place.kind)}:${place.id}`;
  const paths = files.map((file) => file.path);
  switch (place.kind) {
    case 'brand':
      return brandTopic(place.id, files, order);
    case 'language':
      return { verb: sharedVerb(files), order, noun: `${languageName(place.id)} texts`, labels: paths };
    case 'form':
      return { verb: sharedVerb(files), order, noun: `form ${place.id}`, labels: paths };
    case 'fields':
      return { verb: sharedVerb(files), order, noun: 'the fields the forms share', labels: paths };
    case 'countries':
      return { verb: sharedVerb(files), order, noun: 'the list of countries', labels: paths };
    case 'other':
      return { verb: sharedVerb(files), order, noun: place.id, labels: [] };
  }
}

/** A brand is added or removed with its file; a logo or favicon alone changes the brand. */
function brandTopic(id: string, files: ChangedFile[], order: string): Topic {
  const brandFile = files.find((file) => placeOf(file.path).role === undefined);
  if (!brandFile) return { verb: 'Change', order, noun: `brand ${id}`, labels: files.map((file) => file.path) };
  // A logo whose type changed (SVG to PNG) is two files and one word.
  const roles = (['logo', 'favicon'] as const).filter((role) => files.some((file) => placeOf(file.path).role === role));
  return { verb: VERB[brandFile.status], order, noun: `brand ${brandName(brandFile) ?? id}`, labels: [brandFile.path, ...roles] };
}

function sharedVerb(files: ChangedFile[]): Verb {
  const verbs = new Set(files.map((file) => VERB[file.status]));
  return verbs.size === 1 ? [...verbs][0] : 'Change';
}

/** The brand's name as its file gives it (after the change, or before a removal). */
function brandName(file: ChangedFile): string | undefined {
  const bytes = file.status === 'deleted' ? file.before : file.after;
  try {
    const name = (JSON.parse(new TextDecoder().decode(bytes)) as { name?: unknown }).name;
    return typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
  } catch {
    return undefined;
  }
}

/** The language's English name (`de`: German), for the project's English commit messages. */
function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}
