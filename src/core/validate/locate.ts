import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import type { ProjectFiles } from '../project-files.ts';
import { positionAt } from './json-syntax.ts';
import { fromPointer, type Problem } from './problem.ts';

/**
 * Each problem with the line and column its pointer names in its file: the
 * value there (its name, for a problem with the name), or the nearest
 * enclosing value that exists (a missing field: the group that lacks it).
 * Files are read once each; a problem in a file that is not JSON text (a
 * picture, a folder) keeps no line.
 */
export function locateProblems(files: ProjectFiles, problems: readonly Problem[]): Problem[] {
  const texts = new Map<string, { text: string; tree: Node | undefined } | null>();
  const treeOf = (file: string) => {
    if (!texts.has(file)) {
      const text = file.endsWith('.json') ? files.text(file) : undefined;
      texts.set(file, text === undefined ? null : { text, tree: parseTree(text) });
    }
    return texts.get(file)!;
  };
  return problems.map((problem) => {
    if (problem.line !== undefined) return problem;
    const read = treeOf(problem.file);
    if (!read) return problem;
    const offset = read.tree ? offsetOf(read.tree, fromPointer(problem.pointer), problem.atName === true) : 0;
    return { ...problem, ...positionAt(read.text, offset) };
  });
}

function offsetOf(tree: Node, segments: string[], atName: boolean): number {
  for (let depth = segments.length; depth >= 0; depth--) {
    const node = findNodeAtLocation(tree, pathOf(tree, segments.slice(0, depth)));
    if (!node) continue;
    // A member's name is its property node's first child.
    const name = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
    return atName && depth === segments.length && name ? name.offset : node.offset;
  }
  return tree.offset;
}

/** Segments as jsonc-parser's path: indexes as numbers where the value is a list. */
function pathOf(tree: Node, segments: string[]): (string | number)[] {
  const path: (string | number)[] = [];
  let node: Node | undefined = tree;
  for (const segment of segments) {
    const step: string | number = node?.type === 'array' && /^\d+$/.test(segment) ? Number(segment) : segment;
    path.push(step);
    node = node ? findNodeAtLocation(node, [step]) : undefined;
  }
  return path;
}
