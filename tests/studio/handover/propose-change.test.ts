import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeChange, proposeChange, ProposeError, type FileChange, type GitHost } from '../../../src/studio/handover/index.ts';
import { BareRepo } from './hosts/bare-repo.ts';
import type { FakeHost, HostOptions } from './hosts/fake-host.ts';
import { startGitea } from './hosts/gitea-host.ts';
import { startGitHub } from './hosts/github-host.ts';
import { git, tempFolder } from './support/git.ts';
import { noisyPng } from './support/png.ts';

const OPTIONS: HostOptions = { owner: 'acme', name: 'portal', token: 'good-token', readOnlyToken: 'read-only-token' };
const REPORT = '## Validate\n\n0 errors, 1 warning\n\n- brands/pelgrim.json:4:3 warning: the example address is still there';
const BRANCH = 'studio/pelgrim';

// One suite over both hosts: from the studio's side they must behave the same.
const HOSTS = [
  { kind: 'github', start: startGitHub },
  { kind: 'gitea', start: startGitea },
] as const;

let base: Record<string, string | Uint8Array>;
let changes: FileChange[];
beforeAll(async () => {
  base = {
    'brands/teka.json': '{\n  "id": "teka",\n  "name": "Teka"\n}\n',
    'brands/assets/teka-logo.png': await noisyPng(16, 1),
    'brands/assets/teka-favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>\n',
    'schemas/i18n/nl.json': '{ "heading": "Reparatie aanvragen" }\n',
    'schemas/forms/windows.ui.json': '{\r\n  "a": 1\r\n}\r\n',
  };
  changes = [
    { path: 'brands/pelgrim.json', after: '{\n  "id": "pelgrim",\n  "name": "Pelgrim"\n}\n' },
    { path: 'brands/assets/pelgrim-logo.png', after: await noisyPng(16, 2) },
    { path: 'brands/assets/teka-logo.png', before: base['brands/assets/teka-logo.png'], after: await noisyPng(16, 3) },
    { path: 'brands/assets/teka-favicon.svg', before: base['brands/assets/teka-favicon.svg'] },
    { path: 'schemas/i18n/nl.json', before: base['schemas/i18n/nl.json'], after: '{ "heading": "Reparatie aanvragen — één klik" }' },
    { path: 'schemas/forms/windows.ui.json', before: base['schemas/forms/windows.ui.json'], after: base['schemas/forms/windows.ui.json'] },
  ];
});

describe.each(HOSTS)('proposeChange on $kind', ({ kind, start }) => {
  let folder: ReturnType<typeof tempFolder>;
  let repo: BareRepo;
  let host: FakeHost;
  beforeEach(async () => {
    folder = tempFolder(`studio-${kind}`);
    repo = BareRepo.create(folder.path, base);
    host = await start(repo, OPTIONS);
  });
  afterEach(async () => {
    await host.close();
    folder.remove();
  });

  const gitHost = (over: Partial<GitHost> = {}): GitHost => ({ kind, apiBase: host.apiBase, owner: 'acme', repo: 'portal', token: OPTIONS.token, ...over });
  const proposal = () => ({ branch: BRANCH, title: 'Add brand Pelgrim', body: REPORT, changes, author: { name: 'Zoë Pelgrim', email: 'zoe@pelgrim.example' }, date: new Date('2026-03-04T10:20:30Z') });

  /** The proposal is refused with this reason and sentence, and the repository and pull requests are as before. */
  async function expectRefused(target: GitHost, reason: string, words: RegExp): Promise<void> {
    const refs = repo.refs();
    const error = await proposeChange(target, proposal()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProposeError);
    expect(error).toMatchObject({ reason, message: expect.stringMatching(words) });
    expect(repo.refs()).toBe(refs);
    expect(host.pulls).toEqual([]);
  }

  it('opens a pull request from a new branch named after the brand, holding exactly the changed files, with the report as its description', async () => {
    const main = repo.refSha('refs/heads/main');
    const { url } = await proposeChange(gitHost(), proposal());

    expect(host.pulls).toEqual([{ number: 1, title: 'Add brand Pelgrim', head: BRANCH, base: 'main', body: REPORT }]);
    expect(url).toBe('https://git.example.org/pulls/1');
    const tip = repo.refSha(`refs/heads/${BRANCH}`)!;
    expect(git(repo.dir, ['rev-parse', `${tip}^`]).trim()).toBe(main);
    expect(repo.refSha('refs/heads/main')).toBe(main);
    const expected = new Map(Object.entries(base).map(([path, content]) => [path, content]));
    for (const change of changes) {
      if (change.after === undefined) expected.delete(change.path);
      else expected.set(change.path, change.after);
    }
    const files = repo.files(tip);
    expect([...files.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [path, content] of expected) {
      expect(repo.blob(files.get(path)!), path).toEqual(typeof content === 'string' ? new TextEncoder().encode(content) : content);
    }
    const { subject, body } = describeChange(changes);
    expect(git(repo.dir, ['log', '-1', '--format=%s%n%b%n%an|%ae|%aI', tip])).toBe(`${subject}\n${body}\n\nZoë Pelgrim|zoe@pelgrim.example|2026-03-04T10:20:30+00:00\n`);
  });

  it.each([{}, { baseBranch: 'main' }])('says a wrong token is not accepted, in plain words (%o)', async (over) => {
    await expectRefused(gitHost({ token: 'mistyped', ...over }), 'bad-token', /^The Git host did not accept the token: it may be mistyped, expired or revoked\. Make a new token and try again\.$/);
  });

  it('says so when the branch exists, and changes nothing', async () => {
    repo.createRef(`refs/heads/${BRANCH}`, repo.refSha('refs/heads/main')!);
    await expectRefused(gitHost(), 'branch-exists', /^A branch named "studio\/pelgrim" already exists in acme\/portal, so nothing was changed\./);
    expect(host.requests.filter((request) => request.startsWith('POST'))).toEqual([]);
  });

  it('refuses to undo newer work: a changed file that moved on since the studio was built', async () => {
    const head = repo.refSha('refs/heads/main')!;
    const files = repo.files(head).set('schemas/i18n/nl.json', repo.writeBlob('{ "heading": "Elders gewijzigd" }\n'));
    const moved = repo.writeCommit(repo.writeTree(files), [head], 'Someone else', { name: 'Dev', email: 'dev@example.org', date: '2026-02-01T00:00:00Z' });
    git(repo.dir, ['update-ref', 'refs/heads/main', moved, head]);
    await expectRefused(gitHost(), 'base-moved', /^The project's schemas\/i18n\/nl\.json has changed since this studio was built, so nothing was proposed/);
  });

  it('says what a token that may only read lacks', async () => {
    await expectRefused(gitHost({ token: OPTIONS.readOnlyToken }), 'no-access', /^The token was accepted, but it may not change acme\/portal: it needs the right to push branches and open pull requests\./);
  });

  it('says when the repository is not there for this token', async () => {
    await expectRefused(gitHost({ repo: 'portl' }), 'not-found', /^acme\/portl was not found on the Git host, or the token may not see it\./);
  });

  it('says when the host cannot be reached', async () => {
    await expectRefused(gitHost({ apiBase: 'http://127.0.0.1:9/api' }), 'unreachable', /^The Git host at http:\/\/127\.0\.0\.1:9\/api could not be reached\./);
  });
});

describe('proposeChange, before any call', () => {
  it('refuses a branch name git would not take', async () => {
    const host: GitHost = { kind: 'github', apiBase: 'http://127.0.0.1:9', owner: 'a', repo: 'b', token: 't' };
    await expect(proposeChange(host, { branch: 'studio/pel grim', title: 't', body: '', changes: [{ path: 'brands/a.json', after: '{}' }] })).rejects.toThrow(
      /"studio\/pel grim" cannot be a branch name/,
    );
  });
});
