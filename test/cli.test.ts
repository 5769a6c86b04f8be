/** End to end: the built CLI (dist/), spawned as users run it. */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { readDirTree, REPO, removeDir, scratchProject } from './helpers';
import { run as runInProcess } from '../src/cli/main';
import { VERSION } from '../src/version';
import { itgen as itgenInProcess, itgenProcess } from './e2e-helpers';

const REPO_ROOT = REPO;

const CLI = path.join(REPO, 'dist', 'cli', 'main.js');

/** Most tests run the CLI in this process; the first, the FIFO and the JSON Schema ones start it as users do. */
const itgen = itgenInProcess;

function project(): string {
  const dir = scratchProject({});
  cpSync(path.join(REPO, 'test', 'fixtures', 'minimal'), dir, { recursive: true });
  removeDir(path.join(dir, 'expected'));
  return dir;
}

describe('itgen CLI', () => {
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('dist/ is missing: run `npm run build` (npm ci does it through prepare)');
  });

  it('generates the kustomize base and exits 0', () => {
    const dir = project();
    const r = itgenProcess(dir, 'generate');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/minimal: wrote \d+ objects to out/);
    expect(readDirTree(path.join(dir, 'out')).map((f) => f.path)).toContain('kustomization.yaml');
    expect(itgen(dir, 'check').code).toBe(0);
    removeDir(dir);
  });

  it('reports bad input like a compiler, exits 1 and leaves the previous output exactly as it was', () => {
    const dir = project();
    expect(itgen(dir, 'generate').code).toBe(0);
    const before = readDirTree(path.join(dir, 'out'));
    const file = path.join(dir, 'catalog', 'catalog.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('memoryPerCPU: 2Gi', 'memoryPerCPU: 2Gi\nmemoryPerCpu: 3Gi'));
    const r = itgen(dir, 'generate');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^catalog\/catalog\.yaml:\d+:1 error IT1202 unknown key `memoryPerCpu`/m);
    expect(r.stderr).toMatch(/\^+/);
    expect(r.stderr).toMatch(/did you mean `memoryPerCPU`\?/);
    expect(r.stderr).toMatch(/nothing written/);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
    expect(readDirTree(path.join(dir, 'out'))).toEqual(before);
    expect(itgen(dir, 'check').code).toBe(1);
    removeDir(dir);
  });

  it('prints machine-readable diagnostics with --format json and GitHub annotations with --format github', () => {
    const dir = project();
    const file = path.join(dir, 'catalog', 'catalog.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('inherits: base', 'inherits: bsae'));
    const json = itgen(dir, 'validate', '--format', 'json');
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.stdout) as { diagnostics: { code: string; location: { file: string; line: number } }[] };
    expect(parsed.diagnostics[0]).toMatchObject({ code: 'IT2001', location: { file: 'catalog/catalog.yaml' } });
    const gh = itgen(dir, 'validate', '--format', 'github');
    expect(gh.stdout).toMatch(/^::error file=catalog\/catalog\.yaml,line=\d+,col=\d+.*title=IT2001::/m);
    removeDir(dir);
  });

  it('explains where every field came from', () => {
    const dir = project();
    const r = itgen(dir, 'explain', 'd2.large1gi', '--kind', 'VirtualMachineClusterInstancetype');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/pageSize: 1Gi # catalog\/catalog\.yaml:\d+:\d+ \(variant `1gi` of family `d`\)/);
    expect(r.stdout).toMatch(/guest: 4Gi # catalog\/catalog\.yaml:\d+:\d+ \(override of size `large`\)/);
    removeDir(dir);
  });

  it('reports a FIFO named *.yaml instead of blocking on it', () => {
    const dir = project();
    spawnSync('mkfifo', [path.join(dir, 'catalog', 'pipe.yaml')]);
    const r = spawnSync(process.execPath, [CLI, 'validate'], { cwd: dir, encoding: 'utf8', timeout: 20000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/catalog\/pipe\.yaml:1:1 error IT1001 cannot read file: not a regular file/);
    removeDir(dir);
  });

  it('reports a symlinked directory in the catalog instead of skipping its documents silently', () => {
    const dir = project();
    const elsewhere = scratchProject({ 'more.yaml': 'kind: Preference\nname: more\ndisplayName: More\n' });
    symlinkSync(elsewhere, path.join(dir, 'catalog', 'linked'));
    const r = spawnSync(process.execPath, [CLI, 'validate'], { cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/catalog\/linked:1:1 error IT1001 directory is a symbolic link/);
    removeDir(dir);
    removeDir(elsewhere);
  });

  it('prints the catalog JSON Schema', () => {
    const r = itgen(REPO, 'schema');
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.stdout) as { oneOf?: unknown[]; anyOf?: unknown[] };
    expect((schema.oneOf ?? schema.anyOf ?? []).length).toBe(6);
  });

  it('rejects unknown commands and options with usage and exit 1', () => {
    expect(itgen(REPO, 'frobnicate').code).toBe(1);
    expect(itgen(REPO, 'validate', '--nope').code).toBe(1);
  });
});

describe('published catalog JSON Schema', () => {
  it('schema/catalog.schema.json is what `itgen schema` prints (run `npm run generate`)', () => {
    const r = spawnSync(process.execPath, [CLI, 'schema'], { cwd: REPO, encoding: 'utf8' });
    expect(readFileSync(path.join(REPO, 'schema', 'catalog.schema.json'), 'utf8')).toBe(r.stdout);
  });
});

describe('CLI habits', () => {
  const call = (argv: string[]): { code: number; out: string; err: string } => {
    let out = '';
    let err = '';
    const code = runInProcess(argv, { out: (s) => (out += `${s}\n`), err: (s) => (err += `${s}\n`), cwd: REPO_ROOT, color: false });
    return { code, out, err };
  };

  it('--version prints the package version', () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
    expect(call(['--version'])).toEqual({ code: 0, out: `itgen ${pkg.version}\n`, err: '' });
  });

  it('a generator path works as an argument, like -g', () => {
    const positional = call(['validate', '--format', 'json', '-g', 'generators/default.yaml']);
    expect(call(['check', 'generators/default.yaml']).code).toBe(0);
    expect(positional.code).toBe(0);
    expect(call(['matrix', 'generators/default.yaml', '-o', 'markdown']).out).toBe(call(['matrix', '-g', 'generators/default.yaml', '-o', 'markdown']).out);
  });

  it('help COMMAND and COMMAND --help print the usage of that command', () => {
    const a = call(['help', 'expand']);
    const b = call(['expand', '--help']);
    expect(a.code).toBe(0);
    expect(a.out).toMatch(/^usage: itgen expand \[FILE\|DIR\|-\]\.\.\. /);
    expect(b).toEqual(a);
    expect(call(['help', 'nope']).code).toBe(1);
  });
});

describe('itgen build', () => {
  it('prints the objects of a generator as kubectl kustomize builds them from the committed base', () => {
    let out = '';
    const code = runInProcess(['build', 'generators/default.yaml'], { out: (s) => (out += `${s}\n`), err: () => undefined, cwd: REPO_ROOT, color: false });
    expect(code).toBe(0);
    expect(out.startsWith('---\n')).toBe(true);
    const kustomized = spawnSync('kubectl', ['kustomize', path.join(REPO_ROOT, 'output', 'default')], { encoding: 'utf8', maxBuffer: 1 << 26 });
    expect(kustomized.status).toBe(0);
    const key = (text: string): string[] =>
      parseAllDocuments(text)
        .map((d) => JSON.stringify(d.toJS()))
        .sort();
    expect(key(out)).toEqual(key(kustomized.stdout));
    expect(key(out)).toHaveLength(70);
  });
});

describe('usage errors', () => {
  it("a mistake in one command's arguments prints that command's usage, an unknown command the list", () => {
    const bad = itgen(REPO, 'migrate', 'presets', 'x.yaml');
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringContaining('migrate presets needs --out DIR')]);
    expect(bad.stderr).toContain('usage: itgen migrate presets --out DIR');
    expect(bad.stderr).not.toContain('commands:');
    const unknown = itgen(REPO, 'frobnicate');
    expect(unknown.stderr).toContain('commands:');
  });
});
