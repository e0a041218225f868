import { cpSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateProject } from '../../src/cli/validate';
import { copyProject, editJson, removeProject } from './project-copy';

/** The id advice a brand author gets after copying a file by hand, as docs/adding-a-brand.md once said to. */
describe('validate: ids and file names', () => {
  let root: string;
  beforeEach(() => {
    root = copyProject();
  });
  afterEach(() => removeProject(root));

  const idProblems = () => validateProject(root).problems.filter((p) => p.pointer === '/id');
  const copyAs = (name: string) => cpSync(join(root, 'brands/fratelli.json'), join(root, 'brands', name));

  it('fratelli.json copied to boretti.json: blames the copy, never the shipped file, and never suggests fratelli.json', () => {
    copyAs('boretti.json');
    const problems = idProblems();
    expect(problems).toEqual([
      {
        file: 'brands/boretti.json',
        pointer: '/id',
        line: 4,
        column: 9,
        message: 'the id "fratelli" belongs to brands/fratelli.json; this file is brands/boretti.json, so its id must be "boretti". Change the id to "boretti" (every brand needs its own id, equal to its file name).',
      },
    ]);
    expect(problems[0].message).not.toMatch(/rename the file to fratelli\.json/i);
  });

  it('Boretti.json: advises the lower-case file name, not an id with capitals', () => {
    copyAs('Boretti.json');
    editJson(root, 'brands/Boretti.json', (b) => (b.id = 'boretti'));
    expect(idProblems()).toEqual([
      expect.objectContaining({
        file: 'brands/Boretti.json',
        message: 'the file name "Boretti.json" cannot be a brand id: ids use only lower-case letters, digits and dashes, starting with a letter, because the id is part of the web address. Rename the file to boretti.json (the id inside, "boretti", then matches).',
      }),
    ]);
  });

  it('a "copy" file name (fratelli copy.json) gets a usable name that is not taken', () => {
    copyAs('fratelli copy.json');
    expect(idProblems()).toEqual([
      expect.objectContaining({ file: 'brands/fratelli copy.json', message: expect.stringMatching(/Rename the file to fratelli-copy\.json, and change the id to "fratelli-copy"\.$/) }),
    ]);
  });

  it('an id that no brand uses: change the id, or rename the file to it', () => {
    editJson(root, 'brands/teka.json', (b) => (b.id = 'teka-benelux'));
    expect(idProblems()).toEqual([
      expect.objectContaining({ file: 'brands/teka.json', message: 'the id "teka-benelux" must equal the file name without .json ("teka"). Change the id to "teka", or rename the file to teka-benelux.json.' }),
    ]);
  });

  it('a file renamed away from its id, while the id is free: both ways are offered, none onto a brand', () => {
    renameSync(join(root, 'brands/ilve.json'), join(root, 'brands/ilve-nl.json'));
    const [problem] = idProblems();
    expect(problem.message).toBe('the id "ilve" must equal the file name without .json ("ilve-nl"). Change the id to "ilve-nl", or rename the file to ilve.json.');
  });

  it('Hanant.json beside hanant.json: no advice renames onto the existing brand', () => {
    writeFileSync(join(root, 'brands/Hanant.json'), '{}');
    const messages = idProblems().filter((p) => p.file === 'brands/Hanant.json').map((p) => p.message);
    expect(messages).toContainEqual(expect.stringMatching(/cannot be a brand id.*Rename the file to a new id of your own, and write the same id in "id"\.$/));
    expect(messages.join(' ')).not.toMatch(/hanant\.json/);
  });
});
