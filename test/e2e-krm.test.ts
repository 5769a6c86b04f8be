/**
 * KRM function mode with the real kpt: a generator file is the function config, and
 * `kpt fn eval --exec "itgen fn"` produces the same objects as `itgen generate`.
 */
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { readDirTree } from './helpers';
import { assertBuilt, CLI, edit, gitProject, itgen, remove, run, writeFiles } from './e2e-helpers';

beforeAll(assertBuilt);

const dirs: string[] = [];
afterAll(() => dirs.forEach(remove));

type Obj = { apiVersion: string; kind: string; metadata: { name: string; annotations?: Record<string, string> } };

const EXEC = `${process.execPath} ${CLI} fn`;

function parse(text: string): Obj[] {
  const docs = parseAllDocuments(text).map((d) => d.toJS() as Obj | { kind: 'ResourceList'; items: Obj[] } | null);
  return docs.flatMap((d) => (d === null ? [] : d.kind === 'ResourceList' ? (d as { items: Obj[] }).items : [d as Obj]));
}

/** kpt's own bookkeeping annotations are not part of the objects. */
function clean(objects: readonly Obj[]): Obj[] {
  return objects
    .map((o) => {
      const ann = Object.fromEntries(Object.entries(o.metadata.annotations ?? {}).filter(([k]) => !k.includes('config.kubernetes.io/')));
      const { annotations: _a, ...meta } = o.metadata;
      return { ...o, metadata: Object.keys(ann).length > 0 ? { ...meta, annotations: ann } : meta } as Obj;
    })
    .sort((a, b) => `${a.kind}/${a.metadata.name}`.localeCompare(`${b.kind}/${b.metadata.name}`));
}

function generatedObjects(dir: string): Obj[] {
  return readDirTree(path.join(dir, 'output', 'small'))
    .filter((f) => f.path.endsWith('.yaml') && !f.path.endsWith('kustomization.yaml'))
    .flatMap((f) => parse(f.content));
}

function project(): string {
  const dir = gitProject();
  dirs.push(dir);
  expect(itgen(dir, 'generate').code).toBe(0);
  return dir;
}

describe('kpt fn eval --exec "itgen fn"', () => {
  it('kpt is on the PATH', () => {
    const r = run('/', 'kpt', ['version']);
    expect(r.code).toBe(0);
  });

  it('prints the same objects as itgen generate (stdin to stdout), with relative paths resolved from the working directory', () => {
    const dir = project();
    const r = run(dir, 'kpt', ['fn', 'eval', '-', '--exec', EXEC, '--fn-config', 'generators/small.yaml']);
    expect(r.stderr).toMatch(/\[PASS\]/);
    expect(r.code).toBe(0);
    const fromKpt = clean(parse(r.stdout));
    expect(fromKpt).toHaveLength(8);
    expect(fromKpt).toEqual(clean(generatedObjects(dir)));
  });

  it('lays a directory out the way itgen generate does, replacing earlier copies and keeping other resources', () => {
    const dir = project();
    const pkg = path.join(dir, 'pkg');
    mkdirSync(pkg);
    writeFiles(pkg, {
      'other/configmap.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: unrelated\ndata:\n  a: "1"\n',
      // An object this generator emitted once (in a file it writes) and no longer does.
      'VirtualMachineClusterInstancetypes/virtualmachineclusterinstancetypes.yaml':
        'apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterInstancetype\nmetadata:\n  name: u0.small\n  labels:\n    instancetype.kubevirt.io/vendor: example.com\nspec:\n  cpu: {guest: 1}\n  memory: {guest: 1Gi}\n',
      // Someone else's instance type with the same vendor label, in a file of theirs: kept.
      'team-b/special.yaml':
        'apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterInstancetype\nmetadata:\n  name: team-b.special\n  labels:\n    instancetype.kubevirt.io/vendor: example.com\nspec:\n  cpu: {guest: 1}\n  memory: {guest: 1Gi}\n',
    });
    const r = run(dir, 'kpt', ['fn', 'eval', 'pkg', '--exec', EXEC, '--fn-config', 'generators/small.yaml']);
    expect(r.code).toBe(0);
    const files = readDirTree(pkg).map((f) => f.path);
    expect(files).toEqual([
      'VirtualMachineClusterInstancetypes/virtualmachineclusterinstancetypes.yaml',
      'VirtualMachineClusterPreferences/virtualmachineclusterpreferences.yaml',
      'VirtualMachineInstancetypes/virtualmachineinstancetypes.yaml',
      'VirtualMachinePreferences/virtualmachinepreferences.yaml',
      'other/configmap.yaml',
      'team-b/special.yaml',
    ]);
    for (const f of files.filter((p) => p.startsWith('VirtualMachine'))) {
      // Same objects, same order, same file; kpt formats YAML its own way.
      expect(clean(parse(readFileSync(path.join(pkg, f), 'utf8')))).toEqual(clean(parse(readFileSync(path.join(dir, 'output', 'small', f), 'utf8'))));
    }
    // Running it over the generated base itself changes no object.
    const base = path.join(dir, 'base');
    cpSync(path.join(dir, 'output', 'small'), base, { recursive: true });
    expect(run(dir, 'kpt', ['fn', 'eval', 'base', '--exec', EXEC, '--fn-config', 'generators/small.yaml']).code).toBe(0);
    expect(
      clean(
        readDirTree(base)
          .filter((f) => f.path.endsWith('s.yaml'))
          .flatMap((f) => parse(f.content)),
      ),
    ).toEqual(clean(generatedObjects(dir)));
  });

  it('resolves paths from -C when kpt runs elsewhere, and fails with itgen diagnostics on bad input', () => {
    const dir = project();
    const elsewhere = run('/', 'kpt', ['fn', 'eval', '-', '--exec', `${EXEC} -C ${dir}`, '--fn-config', path.join(dir, 'generators/small.yaml')]);
    expect(elsewhere.code).toBe(0);
    expect(clean(parse(elsewhere.stdout))).toEqual(clean(generatedObjects(dir)));

    edit(dir, 'catalogs/small/u1.yaml', 'memoryPerCPU: 2Gi', 'memoryPerCPU: 2Gi\nmemoryPerCpu: 3Gi');
    const bad = run(dir, 'kpt', ['fn', 'eval', '-', '--exec', EXEC, '--fn-config', 'generators/small.yaml']);
    expect(bad.code).not.toBe(0);
    expect(`${bad.stdout}${bad.stderr}`).toMatch(/IT1202 unknown key `memoryPerCpu`/);
  });

  it('answers bad input with a ResourceList of results and exit 1', () => {
    const dir = project();
    const fn = (input: string) => run(dir, process.execPath, [CLI, 'fn'], input);
    const empty = fn('');
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/IT7302 stdin is not a ResourceList/);
    expect(parseAllDocuments(empty.stdout)[0]!.toJS()).toMatchObject({ kind: 'ResourceList', items: [], results: [{ severity: 'error' }] });
    const unnamed = fn(
      'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n  apiVersion: itgen.dev/v1alpha1\n  kind: Generator\n  catalog: ../catalogs/small\n  output: ../output/small\n',
    );
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toMatch(/IT7302 the functionConfig needs metadata.name/);
    edit(dir, 'generators/small.yaml', 'vendor: example.com', 'vendor: example.com\nvendr: typo');
    const typo = run(dir, 'kpt', ['fn', 'eval', '-', '--exec', EXEC, '--fn-config', 'generators/small.yaml']);
    expect(typo.code).not.toBe(0);
    expect(`${typo.stdout}${typo.stderr}`).toMatch(/IT1202 unknown key `vendr`/);
  });
});
