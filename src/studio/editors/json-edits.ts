import { applyEdits, findNodeAtLocation, modify, parseTree, type JSONPath, type Node } from 'jsonc-parser';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isPlain = (value: unknown) => value === null || typeof value !== 'object';

/** The places where `after` differs from `before`: whole values where a list or a kind changed, else each member. */
function changedPaths(before: unknown, after: unknown, path: JSONPath = []): { path: JSONPath; value: unknown }[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (!isObject(before) || !isObject(after)) return [{ path, value: after }];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.flatMap((key) => changedPaths(before[key], after[key], [...path, key]));
}

/** A value as the project's files write it: two spaces, lists of plain values on one line; continued lines at `indent`. */
function written(value: unknown, indent: string): string {
  if (Array.isArray(value) && value.every(isPlain)) return `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}

/** The spaces a line starts with, at an offset in the text. */
function indentAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** A member added to an object: after its last member, on a line of its own (or on the object's line, where it is written on one). */
function added(text: string, object: Node, key: string, value: unknown): string {
  const members = object.children ?? [];
  const last = members.at(-1);
  const oneLine = !text.slice(object.offset, object.offset + object.length).includes('\n');
  const indent = last ? indentAt(text, last.offset) : `${indentAt(text, object.offset)}  `;
  const member = `${JSON.stringify(key)}: ${written(value, indent)}`;
  if (!last) {
    const open = object.offset + 1;
    return oneLine ? `${text.slice(0, open)} ${member} ${text.slice(object.offset + object.length - 1)}` : `${text.slice(0, open)}\n${indent}${member}${text.slice(open).replace(/^[ \t]*/, '')}`;
  }
  const end = last.offset + last.length;
  return `${text.slice(0, end)},${oneLine ? ' ' : `\n${indent}`}${member}${text.slice(end)}`;
}

/** The text with one value set at a path (undefined: removed), the rest as its author wrote it. */
export function setAt(text: string, path: JSONPath, value: unknown): string {
  const tree = parseTree(text);
  const node = tree && findNodeAtLocation(tree, path);
  if (value === undefined || !tree) return applyEdits(text, modify(text, path, value, {}));
  if (node) return `${text.slice(0, node.offset)}${written(value, indentAt(text, node.parent?.offset ?? node.offset))}${text.slice(node.offset + node.length)}`;
  const parent = findNodeAtLocation(tree, path.slice(0, -1));
  if (parent?.type === 'object') return added(text, parent, String(path.at(-1)), value);
  // A member of a group that is not there yet: the group, made whole.
  return setAt(text, path.slice(0, -1), { [String(path.at(-1))]: value });
}

/**
 * The file's text with the data's changes made in place: only what changed is rewritten, so the rest
 * of the file (its order, its spacing, its short lists) stays as its author wrote it, and a hand-over
 * shows the change and nothing else.
 */
export function editedText(text: string, before: unknown, after: unknown): string {
  let result = text;
  for (const { path, value } of changedPaths(before, after)) {
    if (path.length === 0) return `${JSON.stringify(after, null, 2)}\n`;
    result = setAt(result, path, value);
  }
  return result;
}
