/**
 * Never delete what users run by accident: before the first release, `generate` refuses to drop
 * objects the committed base has (IT7401) unless --allow-removals; with a release lock the lock's
 * rules apply instead (IT7102).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { run } from '../src/cli/main';
import { committedObjects } from '../src/emit/committed';
import { parseObjects } from '../src/release/diff';
import { droppedObjects } from '../src/release/drift';
import { readDirTree, removeDir, REPO, scratchProject, TINY_CATALOG } from './helpers';

const CATALOG = TINY_CATALOG;

function itgen(cwd: string, ...argv: string[]): { code: number; text: string } {
  let text = '';
  const code = run(argv, { out: (s) => (text += `${s}\n`), err: (s) => (text += `${s}\n`), cwd, color: false });
  return { code, text };
}

function project(generator = 'scopes: [cluster]\n'): string {
  const dir = scratchProject({
    'generators/t.yaml': `catalog: ../catalog\noutput: ../output/t\nvendor: kubevirt.io\n${generator}`,
    'catalog/catalog.yaml': CATALOG,
  });
  expect(itgen(dir, 'generate').code).toBe(0);
  return dir;
}

const dropLarge = (dir: string): void =>
  writeFileSync(
    path.join(dir, 'catalog/catalog.yaml'),
    readFileSync(path.join(dir, 'catalog/catalog.yaml'), 'utf8').replace('  - {name: large, cpu: 2}\n', ''),
  );

describe('removal guard', () => {
  it('without a lock: dropping objects is refused, naming them, and output/ stays as it was', () => {
    const dir = project();
    try {
      const before = readDirTree(path.join(dir, 'output'));
      dropLarge(dir);
      const r = itgen(dir, 'generate');
      expect(r.code).toBe(1);
      expect(r.text).toContain(
        'generators/t.yaml:2:9 error IT7401 generating would remove 1 object that output/t has: `VirtualMachineClusterInstancetype/c1.large`',
      );
      expect(r.text).toContain('nothing written');
      expect(readDirTree(path.join(dir, 'output'))).toEqual(before);
      // validate runs every check generate runs: it refuses the same way (and accepts --allow-removals).
      const v = itgen(dir, 'validate');
      expect(v.code).toBe(1);
      expect(v.text).toContain('generators/t.yaml:2:9 error IT7401 generating would remove 1 object');
      expect(itgen(dir, 'validate', '--allow-removals').code).toBe(0);
    } finally {
      removeDir(dir);
    }
  });

  it('--allow-removals drops them', () => {
    const dir = project();
    try {
      dropLarge(dir);
      expect(itgen(dir, 'generate', '--allow-removals').code).toBe(0);
      expect(readFileSync(path.join(dir, 'output/t/VirtualMachineClusterInstancetypes/virtualmachineclusterinstancetypes.yaml'), 'utf8')).not.toContain(
        'c1.large',
      );
    } finally {
      removeDir(dir);
    }
  });

  it('with a release lock the lock decides: removal without deprecation is IT7102, and IT7401 does not repeat it', () => {
    const dir = project();
    try {
      expect(itgen(dir, 'release', '--version', 'v1.0.0').code).toBe(0);
      dropLarge(dir);
      const r = itgen(dir, 'generate');
      expect(r.code).toBe(1);
      expect(r.text).toContain('IT7102');
      expect(r.text).not.toContain('IT7401');
      expect(itgen(dir, 'generate', '--allow-removals').text).toContain('IT7102');
    } finally {
      removeDir(dir);
    }
  });

  it('a changed generator namespace is a removal: the controllers prune every namespaced object from the old one', () => {
    const dir = project('scopes: [namespaced]\nnamespace: vms-a\n');
    try {
      const gen = path.join(dir, 'generators/t.yaml');
      writeFileSync(gen, readFileSync(gen, 'utf8').replace('vms-a', 'vms-b'));
      const r = itgen(dir, 'generate');
      expect(r.code).toBe(1);
      expect(r.text).toContain(
        'error IT7401 generating would remove 3 objects that output/t has: `VirtualMachineInstancetype/vms-a/c1.large`, `VirtualMachineInstancetype/vms-a/c1.small`, `VirtualMachinePreference/vms-a/mylinux`',
      );
      expect(itgen(dir, 'generate', '--allow-removals').code).toBe(0);
    } finally {
      removeDir(dir);
    }
  });
});

describe('droppedObjects', () => {
  const o = (kind: string, name: string, namespace?: string): { kind: string; metadata: { name: string; namespace?: string } } => ({
    kind,
    metadata: namespace === undefined ? { name } : { name, namespace },
  });

  it('names what the committed base has and the generation lacks, by kind, namespace and name, sorted', () => {
    const committed = [
      o('VirtualMachinePreference', 'b', 'ns'),
      o('VirtualMachineClusterPreference', 'b'),
      o('VirtualMachineClusterInstancetype', 'a'),
      o('VirtualMachineInstancetype', 'a', 'ns'),
    ];
    expect(droppedObjects(committed, committed)).toEqual([]);
    expect(droppedObjects(committed, [o('VirtualMachineInstancetype', 'a', 'ns'), o('VirtualMachineClusterPreference', 'b')])).toEqual([
      'VirtualMachineClusterInstancetype/a',
      'VirtualMachinePreference/ns/b',
    ]);
  });

  it('a kind change or a namespace change drops the old object; additions drop nothing', () => {
    expect(droppedObjects([o('VirtualMachineClusterInstancetype', 'a')], [o('VirtualMachineInstancetype', 'a', 'ns')])).toEqual([
      'VirtualMachineClusterInstancetype/a',
    ]);
    expect(droppedObjects([o('VirtualMachineInstancetype', 'a')], [o('VirtualMachineInstancetype', 'a', 'ns')])).toEqual(['VirtualMachineInstancetype/a']);
    expect(droppedObjects([], [o('VirtualMachineInstancetype', 'a', 'ns')])).toEqual([]);
  });
});

describe('committedObjects (emit/committed.ts, the one reader of committed output)', () => {
  it.each(['output/default', 'output/common-instancetypes', 'test/fixtures/vendor-options/expected/acme'])(
    'reads the same kind, name and namespace off %s as the yaml library does',
    (dir) => {
      const files = readDirTree(path.join(REPO, dir));
      const key = (o: { kind: string; metadata: { name: string; namespace?: unknown } }): string =>
        `${o.kind}/${String(o.metadata.namespace ?? '')}/${o.metadata.name}`;
      const parsed = files
        .filter((f) => /\.yaml$/.test(f.path) && !f.path.endsWith('kustomization.yaml'))
        .flatMap((f) => parseObjects(f.content).objects)
        .map(key)
        .sort();
      expect(committedObjects(files).map(key).sort()).toEqual(parsed);
      expect(parsed.length).toBeGreaterThan(0);
    },
  );

  it('takes nothing from hostile content: names that are not strings, prototype keys, other API groups, unparsable text', () => {
    const files = [
      { path: 'a/x.yaml', content: 'apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineClusterInstancetype\nmetadata: {name: [1]}\n' },
      { path: 'a/y.yaml', content: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n' },
      { path: 'a/z.yaml', content: 'apiVersion: instancetype.kubevirt.io/v1beta1\nkind: K\nmetadata: {name: n, __proto__: {polluted: 1}}\n' },
      { path: 'a/w.yaml', content: '{{{ not yaml' },
      { path: 'a/v.yaml', content: 'apiVersion: instancetype.kubevirt.io/v1beta1\nkind: K\nmetadata: {name: "a\\n::error::x"}\n' },
    ];
    expect(committedObjects(files).map((o) => o.metadata.name)).toEqual(['a\n::error::x']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
