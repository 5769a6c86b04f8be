/**
 * Reviewing a catalog change: the Markdown diff a pull request gets as a comment (small, large and
 * folded, cut with a count), and which VMs a change touches (`--vms`): a VM on a removed object, on
 * a deprecated one, on a changed one with its field diff, and one unaffected. Goldens under
 * test/fixtures/review/ (UPDATE_GOLDEN=1 rewrites them).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { diffMarkdown, type ReviewedChange } from '../src/release/review';
import { removeDir, REPO, runs, scratchProject, TINY_CATALOG, toolPresent, UPDATE_GOLDEN } from './helpers';
import { runInProcess, type CliRun } from './e2e-helpers';

const FIXTURES = path.join(REPO, 'test', 'fixtures', 'review');

function golden(name: string, actual: string): void {
  const file = path.join(FIXTURES, name);
  if (UPDATE_GOLDEN || !existsSync(file)) writeFileSync(file, actual);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

const itgen = (cwd: string, argv: readonly string[]): CliRun => runInProcess(cwd, argv);

/** TINY_CATALOG with a third size and a second preference: enough to remove, deprecate and change one of each. */
const CATALOG = `${TINY_CATALOG.replace('  - {name: large, cpu: 2}\n', '  - {name: large, cpu: 2}\n  - {name: xlarge, cpu: 4}\n')}---
kind: Preference
name: newlinux
displayName: New Linux
spec:
  devices: {preferredDiskBus: virtio}
`;

const vm = (name: string, it: string, pref: string, extra = ''): string =>
  `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: ${name}, namespace: default}\nspec:\n  instancetype: {name: ${it}${extra}}\n  preference: {name: ${pref}}\n  template: {spec: {domain: {devices: {}}}}\n  runStrategy: Always\n`;

describe('itgen diff for review', () => {
  it('Markdown and --vms: a VM on a removed object, on a deprecated one, on a changed one (with its field diff), one unaffected', () => {
    const dir = scratchProject({
      'generators/t.yaml': 'catalog: ../catalog\noutput: ../output\nvendor: acme.example\nsuppressWarnings: [IT5007]\n',
      'catalog/catalog.yaml': CATALOG,
      'vms/a-removed.yaml': vm('a-removed', 'c1.large', 'newlinux'),
      'vms/b-deprecated.yaml': vm('b-deprecated', 'c1.xlarge', 'mylinux'),
      'vms/c-changed.yaml': vm('c-changed', 'c1.small', 'newlinux'),
      'vms/d-pinned.yaml': vm('d-pinned', 'c1.small', 'newlinux', ', revisionName: d-pinned-c1.small-1'),
      'vms/e-unaffected.yaml': vm('e-unaffected', 'c1.xlarge', 'newlinux'),
    });
    try {
      expect(itgen(dir, ['generate']).code).toBe(0);
      expect(itgen(dir, ['release', '--version', 'v1.0.0']).code).toBe(0);
      writeFileSync(
        path.join(dir, 'catalog/catalog.yaml'),
        CATALOG.replace('  - {name: large, cpu: 2}\n', '')
          .replace('memoryPerCPU: 2Gi', 'memoryPerCPU: 2Gi\noverrides:\n  small: {memory: 3Gi}')
          .replace('displayName: My Linux\n', 'displayName: My Linux\ndeprecated: {replacement: newlinux}\n'),
      );
      const md = itgen(dir, ['diff', '-o', 'markdown', '--vms', 'vms']);
      expect(md.code).toBe(1);
      golden('small.md', md.out);
      const text = itgen(dir, ['diff', '--vms', 'vms']);
      golden('vms.txt', text.err.replace(/\n {2}hint: .*$/gm, ''));
      expect(text.err).toContain(
        'vms/a-removed.yaml:5:24 error IT8301 VirtualMachine `a-removed` uses VirtualMachineClusterInstancetype `c1.large`, which this change removes',
      );
      expect(text.err).toContain(
        'vms/b-deprecated.yaml:6:22 warning IT8302 VirtualMachine `b-deprecated` uses VirtualMachineClusterPreference `mylinux`, which this change deprecates',
      );
      expect(text.err).toContain('hint: move it to `newlinux`');
      expect(text.err).toMatch(
        /warning IT8303 VirtualMachine `c-changed` changes at its next start: spec\.template\.spec\.domain\.memory\.guest "2Gi" -> "3Gi"/,
      );
      expect(text.err).toMatch(/warning IT8303 VirtualMachine `d-pinned` changes at its next start with its ControllerRevision cleared/);
      expect(text.err).not.toContain('e-unaffected');
      // validate and generate say the same about the VMs (against the committed base); generate writes nothing.
      const validated = itgen(dir, ['validate', '--vms', 'vms']);
      expect(validated.code).toBe(1);
      expect([validated.err]).toEqual([expect.stringContaining('vms/a-removed.yaml:5:24 error IT8301')]);
      const generated = itgen(dir, ['generate', '--vms', 'vms']);
      expect([generated.code, generated.err]).toEqual([1, expect.stringContaining('nothing written')]);
      const json = JSON.parse(itgen(dir, ['diff', '-o', 'json', '--vms', 'vms']).out) as {
        generators: { summary: unknown; vms: { unaffected: number; touched: { vm: string }[] } }[];
      };
      expect(json.generators[0]!.summary).toEqual({ added: 0, removed: 2, changed: 4 });
      expect(json.generators[0]!.vms.unaffected).toBe(1);
      expect(json.generators[0]!.vms.touched.map((t) => t.vm)).toEqual(['a-removed', 'b-deprecated', 'c-changed', 'd-pinned']);
    } finally {
      removeDir(dir);
    }
  });

  it('a large diff is folded in <details>, a very large one cut with a count; input text cannot break the table or inject HTML', () => {
    const change = (i: number): ReviewedChange => ({
      kind: 'VirtualMachineClusterInstancetype',
      name: `u${i}.large`,
      change: 'changed',
      fields: [{ path: 'spec.memory.guest', before: '4Gi', after: '8Gi' }],
      before: { vcpu: 2, memory: '4Gi' },
      after: { vcpu: 2, memory: '8Gi' },
    });
    const large = Array.from({ length: 20 }, (_, i) => change(i));
    golden('large.md', diffMarkdown('acme: output/acme → the catalogs', large));
    const huge = Array.from({ length: 130 }, (_, i) => change(i));
    const cut = diffMarkdown('acme: output/acme → the catalogs', huge, { maxRows: 100 });
    golden('cut.md', cut);
    expect(cut).toContain('… and 30 more changes');
    const hostile = diffMarkdown('x', [{ ...change(0), name: 'a|b<script>`x`\n::error::y', fields: [{ path: 'spec.x', before: '<img src=x>', after: '|' }] }]);
    // Input text stays inside code spans, where GitHub renders it as text (test/markdown.test.ts renders it).
    expect(hostile).toContain("`a\\|b<script>'x'\\u000a::error::y`");
    expect(hostile).not.toMatch(/\n::error/);
    expect(hostile.split('\n').filter((l) => l.startsWith('| changed')).length).toBe(1);
  });
});

describe('release notes from the lock', () => {
  it('a multi-release history: added, deprecated (with replacement), removed, changed through an override (with its reason); CHANGELOG.md in the base', () => {
    const dir = scratchProject({
      'generators/t.yaml': 'catalog: ../catalog\noutput: ../output\nvendor: acme.example\nsuppressWarnings: [IT5007]\n',
      'catalog/catalog.yaml': CATALOG,
    });
    const write = (text: string): void => writeFileSync(path.join(dir, 'catalog/catalog.yaml'), text);
    try {
      expect(itgen(dir, ['generate']).code).toBe(0);
      expect(itgen(dir, ['release', '--version', 'v1.0.0']).code).toBe(0);
      // v1.1.0: a new size, a deprecated preference and a deprecated size.
      const v11 = CATALOG.replace('  - {name: xlarge, cpu: 4}\n', '  - {name: xlarge, cpu: 4}\n  - {name: 2xlarge, cpu: 8}\n')
        .replace('displayName: My Linux\n', 'displayName: My Linux\ndeprecated: {replacement: newlinux}\n')
        .replace('memoryPerCPU: 2Gi', 'memoryPerCPU: 2Gi\noverrides:\n  large: {deprecated: {replacement: c1.xlarge}}');
      write(v11);
      expect(itgen(dir, ['generate']).code).toBe(0);
      expect(itgen(dir, ['release', '--version', 'v1.1.0']).code).toBe(0);
      // v1.2.0: the deprecated size goes, and c1.small changes in place through a reviewed override.
      write(v11.replace('  - {name: large, cpu: 2}\n', '').replace('  large: {deprecated: {replacement: c1.xlarge}}', '  small: {memory: 3Gi}'));
      const refused = itgen(dir, ['validate']);
      const digests = [...refused.err.matchAll(/\{name: c1\.small, kind: (\w+), allow: change, digest: "(sha256:[0-9a-f]{64})"/g)];
      expect(digests).toHaveLength(2);
      const lock = path.join(dir, 'generators/t.lock.yaml');
      writeFileSync(
        lock,
        `${readFileSync(lock, 'utf8')}overrides:\n${digests.map((m) => `  - {name: c1.small, kind: ${m[1]}, allow: change, digest: "${m[2]}", reason: "guests ran out of memory; reviewed by the platform team"}\n`).join('')}`,
      );
      expect(itgen(dir, ['generate']).err).toContain('wrote');
      expect(itgen(dir, ['release', '--version', 'v1.2.0']).code).toBe(0);
      expect(itgen(dir, ['check']).code).toBe(0);
      const notes = itgen(dir, ['notes']);
      expect(notes.code).toBe(0);
      golden('notes.md', notes.out);
      expect(readFileSync(path.join(dir, 'output', 'CHANGELOG.md'), 'utf8')).toBe(notes.out);
      const since = itgen(dir, ['notes', '--since', 'v1.1.0']).out;
      expect(since).toContain('## v1.2.0');
      expect(since).not.toContain('## v1.1.0');
      const json = JSON.parse(itgen(dir, ['notes', '-o', 'json']).out) as {
        generators: { sections: { version: string; removed: { name: string }[]; changed: { detail: string }[] }[] }[];
      };
      expect(json.generators[0]!.sections[0]!.version).toBe('v1.2.0');
      expect(json.generators[0]!.sections[0]!.removed.map((r) => r.name)).toEqual(['c1.large', 'c1.large']);
      expect(json.generators[0]!.sections[0]!.changed[0]!.detail).toBe('guests ran out of memory; reviewed by the platform team');
    } finally {
      removeDir(dir);
    }
  });
});

describe("the CI template's review comment", () => {
  const dir = scratchProject({});
  afterAll(() => removeDir(dir));
  beforeAll(() => {
    expect(itgen(dir, ['init', '--name', 'acme']).code).toBe(0);
  });

  it("both workflows pass GitHub's own workflow parser (@actions/workflow-parser)", () => {
    const files = ['itgen.yaml', 'itgen-comment.yaml'].map((f) => path.join(dir, '.github', 'workflows', f));
    const r = spawnSync(process.execPath, [path.join(REPO, 'tools', 'check-workflow.mjs'), ...files], { encoding: 'utf8' });
    expect([r.status, r.stdout]).toEqual([0, '']);
    // And the parser does refuse a broken one: the check can fail.
    const broken = path.join(dir, 'broken.yaml');
    writeFileSync(broken, readFileSync(files[1]!, 'utf8').replace('runs-on: ubuntu-latest', 'runs-onn: ubuntu-latest'));
    expect(spawnSync(process.execPath, [path.join(REPO, 'tools', 'check-workflow.mjs'), broken], { encoding: 'utf8' }).status).toBe(1);
  });

  it('posts one comment per pull request, found by the commit (never by the artifact), and updates it on the next push', async () => {
    const workflow = parse(readFileSync(path.join(dir, '.github', 'workflows', 'itgen-comment.yaml'), 'utf8')) as {
      jobs: { comment: { steps: { uses?: string; with?: { script?: string } }[] } };
    };
    const script = workflow.jobs.comment.steps.find((s) => s.uses?.startsWith('actions/github-script'))!.with!.script!;
    const comments: { id: number; issue: number; body: string; user: { type: string } }[] = [{ id: 1, issue: 7, body: 'a human', user: { type: 'User' } }];
    const calls: string[] = [];
    const github = {
      paginate: async (fn: (a: Record<string, unknown>) => Promise<unknown>, args: Record<string, unknown>): Promise<unknown> => fn(args),
      rest: {
        pulls: {
          list: async (): Promise<unknown> => [
            { number: 3, head: { sha: 'other' } },
            { number: 7, head: { sha: 'abc123' } },
          ],
        },
        issues: {
          listComments: async (a: { issue_number: number }): Promise<unknown> => comments.filter((c) => c.issue === a.issue_number),
          createComment: async (a: { issue_number: number; body: string }): Promise<void> => {
            calls.push(`create ${a.issue_number}`);
            comments.push({ id: comments.length + 1, issue: a.issue_number, body: a.body, user: { type: 'Bot' } });
          },
          updateComment: async (a: { comment_id: number; body: string }): Promise<void> => {
            calls.push(`update ${a.comment_id}`);
            comments.find((c) => c.id === a.comment_id)!.body = a.body;
          },
        },
      },
    };
    const work = path.join(dir, 'artifact');
    mkdirSync(work, { recursive: true });
    writeFileSync(path.join(work, 'comment.md'), golden_small());
    // The artifact may say anything: a forged pull request number is not read.
    writeFileSync(path.join(work, 'pr-number'), '3');
    const runScript = async (sha: string): Promise<void> => {
      const cwd = process.cwd();
      const env = process.env['HEAD_SHA'];
      process.chdir(work);
      process.env['HEAD_SHA'] = sha;
      try {
        const fn = new Function('github', 'context', 'require', 'process', `return (async () => {\n${script}\n})();`) as (...a: unknown[]) => Promise<void>;
        await fn(github, { repo: { owner: 'acme', repo: 'catalog' } }, require, process);
      } finally {
        process.chdir(cwd);
        if (env === undefined) delete process.env['HEAD_SHA'];
        else process.env['HEAD_SHA'] = env;
      }
    };
    await runScript('abc123');
    await runScript('abc123');
    await runScript('not-a-pull-request');
    expect(calls).toEqual(['create 7', 'update 2']);
    expect(comments.filter((c) => c.issue === 7 && c.body.startsWith('<!-- itgen-review -->'))).toHaveLength(1);
    // itgen's own review passes the job's neutralizing unchanged.
    expect(comments.find((c) => c.id === 2)!.body).toBe(`<!-- itgen-review -->\n${golden_small()}`);
    expect(comments.find((c) => c.id === 1)!.body).toBe('a human');

    // A hostile artifact (the pull request controls what writes it): the job itself neutralizes it.
    const hostile = [
      '<img src=https://evil.example/t.png> @acme/admins #1 owner/repo#2 GH-3',
      '[x](javascript:alert(1)) ![i](https://evil.example/i.png) [ref][1]',
      '',
      '[1]: https://evil.example/ref',
      'https://evil.example/bare www.evil.example mail@evil.example',
      '<details open><summary>s</summary></details> <script>alert(1)</script>',
      '\u001b]0;title\u0007',
      'x'.repeat(300_000),
    ].join('\n');
    writeFileSync(path.join(work, 'comment.md'), hostile);
    await runScript('abc123');
    const posted = comments.find((c) => c.id === 2)!.body;
    expect(posted.length).toBeLessThanOrEqual(60_000 + '<!-- itgen-review -->\n'.length);
    expect(posted).toContain('(cut: the comment is bounded');
    expect(posted).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    // As GitHub renders it, where cmark-gfm is installed (.ci/run installs it and requires it).
    if (toolPresent('cmark-gfm', () => runs('cmark-gfm'), 'apt-get install cmark-gfm')) {
      const html = spawnSync('cmark-gfm', ['--extension', 'table', '--extension', 'autolink'], { input: posted, encoding: 'utf8' }).stdout;
      expect(html).not.toMatch(/<(img|a|script|details open)\b/);
      expect(html).not.toMatch(/@[A-Za-z0-9]|#[0-9]|https?:\/\/|www\./);
    }
    // Its actions are pinned by commit.
    for (const step of workflow.jobs.comment.steps) if (step.uses) expect(step.uses).toMatch(/^[\w-]+\/[\w-]+@[0-9a-f]{40}$/);
  });
});

/** The Markdown the comment step posts: the golden of `itgen diff -o markdown --vms` above. */
function golden_small(): string {
  return readFileSync(path.join(FIXTURES, 'small.md'), 'utf8');
}
