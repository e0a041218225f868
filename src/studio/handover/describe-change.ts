import { someChangedFiles, type ChangedFile } from './changed-files.ts';
import { changeTopics, type Topic } from './change-topics.ts';
import type { FileChange } from './types.ts';

// Past this a subject drops its file names, then all but its first topic; the body lists every file.
const SUBJECT_LENGTH = 120;

/**
 * A commit message in plain words: "Add brand Pelgrim (brands/pelgrim.json,
 * logo, favicon) and German texts (schemas/i18n/de.json)", and a body that
 * names every file. The same change always reads the same.
 */
export function describeChange(changes: FileChange[]): { subject: string; body: string } {
  const files = someChangedFiles(changes);
  const topics = changeTopics(files);
  const candidates = [sentence(topics, true), sentence(topics, false)];
  const subject = candidates.find((s) => s.length <= SUBJECT_LENGTH) ?? `${sentence(topics.slice(0, 1), false)} and ${topics.length - 1} more changes`;
  return { subject, body: ['Made in the brand studio.', '', ...files.map(fileLine)].join('\n') };
}

/** Topics of one verb share it: "Add A and B; change C". */
function sentence(topics: Topic[], withLabels: boolean): string {
  const runs: Topic[][] = [];
  for (const topic of topics) {
    const run = runs.at(-1);
    if (run && run[0].verb === topic.verb) run.push(topic);
    else runs.push([topic]);
  }
  return runs
    .map((run, i) => {
      const verb = i === 0 ? run[0].verb : run[0].verb.toLowerCase();
      return `${verb} ${list(run.map((topic) => phrase(topic, withLabels)))}`;
    })
    .join('; ');
}

function phrase(topic: Topic, withLabels: boolean): string {
  return withLabels && topic.labels.length > 0 ? `${topic.noun} (${topic.labels.join(', ')})` : topic.noun;
}

function list(items: string[]): string {
  return items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

const STATUS: Record<ChangedFile['status'], string> = { added: 'new', modified: 'changed', deleted: 'deleted' };

function fileLine(file: ChangedFile): string {
  return `- ${file.path}: ${STATUS[file.status]}`;
}
