/**
 * Issue 51's defects, each held by a test that failed before its fix: a source line bounded in a
 * diagnostic, the duplicate disk names in KubeVirt's words without a pass per disk, `1Ei` named for
 * what it is, a CHECKSUMS file with CRLF line ends, an override no architecture would apply.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { diag } from '../src/diagnostics';
import { formatText } from '../src/format';
import { diskCauses } from '../src/kubevirt/spec-disks';
import { bytesProblem } from '../src/quantity';
import { readPublishedBundles } from '../src/release/bundle';
import { sha256Hex } from '../src/digest';
import { runInProcess } from './e2e-helpers';
import { DEFAULT_GENERATOR, removeDir, scratchProject, TINY_CATALOG } from './helpers';

describe('what held, holds', () => {
  it('a diagnostic on a line of 1.4 MB shows 160 characters of it around the column', () => {
    const line = `{"items": [${'{"kind": "Node"}, '.repeat(80_000)}"x"]}`;
    const d = diag('IT8005', 'bad', { file: 'nodes.json', line: 1, col: 700_000, endCol: 700_003 });
    const text = formatText([d], () => [line]);
    expect(text.length).toBeLessThan(600);
    const [, shown, caret] = text.split('\n');
    expect(shown).toMatch(/^ {3}1 \| …/);
    expect(shown!.endsWith('…')).toBe(true);
    // The caret still points at the column.
    const at = caret!.indexOf('^') - caret!.indexOf('|') - 2;
    expect(shown!.slice(shown!.indexOf('|') + 2)[at]).toBe(line[699_999]);
  });

  it('disks of the same name: every earlier one named, as KubeVirt lists them', () => {
    const disks = [{ name: 'a' }, { name: 'b' }, { name: 'a' }, { name: 'a' }];
    expect(diskCauses(disks, 'spec.domain.devices.disks').map((c) => c.message)).toEqual([
      'spec.domain.devices.disks[2] and spec.domain.devices.disks[0] must not have the same Name.',
      'spec.domain.devices.disks[3] and spec.domain.devices.disks[0] must not have the same Name.',
      'spec.domain.devices.disks[3] and spec.domain.devices.disks[2] must not have the same Name.',
    ]);
    // 50,000 distinct disks: no cause, one pass.
    expect(
      diskCauses(
        Array.from({ length: 50_000 }, (_, i) => ({ name: `d${i}` })),
        'd',
      ),
    ).toEqual([]);
  });

  it('a VM without a run strategy is refused at its spec, where the run strategy goes, not in its template', () => {
    const dir = scratchProject({
      'vm.yaml':
        'apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: v}\nspec:\n  template:\n    spec:\n      domain:\n        resources: {requests: {memory: 1Gi}}\n        devices: {}\n',
    });
    try {
      const r = runInProcess(dir, ['validate', 'vm.yaml']);
      expect(r.code).toBe(1);
      expect(r.err).toContain('vm.yaml:5:3 error IT8003 VirtualMachine `v` would be refused: RunStrategy must be specified');
    } finally {
      removeDir(dir);
    }
  });

  it('generate of an up-to-date base removes what a killed run left beside it (its tree, its lock)', () => {
    const dir = scratchProject({ 'generators/t.yaml': DEFAULT_GENERATOR, 'catalog/catalog.yaml': TINY_CATALOG });
    try {
      expect(runInProcess(dir, ['generate']).code).toBe(0);
      mkdirSync(path.join(dir, '.output.itgen-new-4194303-x'));
      writeFileSync(path.join(dir, '.output.itgen-new-4194303-x', 'half.yaml'), 'kind: half\n');
      // A lock whose holder is gone.
      writeFileSync(path.join(dir, '.output.itgen-lock'), `itgen-lock v1 pid=4194303 start=- host=${hostname()}\n`);
      const r = runInProcess(dir, ['generate']);
      expect(r.code).toBe(0);
      expect(readdirSync(dir).filter((n) => n.includes('itgen-'))).toEqual([]);
    } finally {
      removeDir(dir);
    }
  });

  it('1Ei is a quantity, more than itgen counts exactly; 1.5 bytes is not whole', () => {
    expect(bytesProblem('1Ei')).toMatch(/^is more than itgen counts exactly/);
    expect(bytesProblem('1500m')).toBe('is not a whole number of bytes');
    expect(bytesProblem('-1Gi', true)).toBe('is not a positive whole number of bytes');
  });

  it('a CHECKSUMS file with CRLF line ends verifies the bundles it names', () => {
    const bundle = Buffer.from('apiVersion: v1\nkind: List\nitems: []\n');
    const name = 'acme-instancetypes-all-bundle-v1.0.0.yaml';
    const read = readPublishedBundles(
      [
        { name: 'CHECKSUMS.sha256', bytes: Buffer.from(`${sha256Hex(bundle)}  ${name}\r\n`) },
        { name, bytes: bundle },
      ],
      'acme',
      'bundles',
    );
    expect(read.diagnostics).toEqual([]);
    expect(read.bundles.map((b) => b.version)).toEqual(['v1.0.0']);
  });

  it('a preference that names no architectures takes its default architecture’s override; another architecture’s is refused, not lost', () => {
    const catalog = (override: string): string =>
      [
        'kind: Catalog\nname: t',
        'kind: SizeLadder\nname: sizes\nsizes:\n  - {name: small, cpu: 1}',
        'kind: Family\nname: g\nversion: 1\ndisplayName: G\ndescription: G.\nclass: general.purpose\nmemoryPerCPU: 2Gi',
        'kind: PreferenceFragment\nname: sb\nspec:\n  firmware: {preferredEfi: {secureBoot: true}}\n  features: {preferredSmm: {}}',
        `kind: Preference\nname: win\ndisplayName: Windows\narchitectureOverrides:\n  ${override}:\n    include: [sb]\n`,
      ].join('\n---\n');
    const dir = scratchProject({ 'generators/t.yaml': `${DEFAULT_GENERATOR}suppressWarnings: [IT5006]\n`, 'catalog/catalog.yaml': catalog('amd64') });
    try {
      expect(runInProcess(dir, ['generate']).code).toBe(0);
      const written = readFileSync(path.join(dir, 'output', 'VirtualMachineClusterPreferences', 'virtualmachineclusterpreferences.yaml'), 'utf8');
      expect(written).toContain('secureBoot: true');
      expect(written).toContain('preferredSmm: {}');
      writeFileSync(path.join(dir, 'catalog', 'catalog.yaml'), catalog('arm64'));
      const r = runInProcess(dir, ['validate']);
      expect(r.code).toBe(1);
      expect(r.err).toContain(
        "error IT2022 preference `win` names no `architectures`: its one object is for the catalog's amd64, and its arm64 override (features.preferredSmm, firmware.preferredEfi.secureBoot) would silently be lost",
      );
      expect(r.err).toContain('hint: name the architectures it is for: `architectures: [amd64, arm64]`');
    } finally {
      removeDir(dir);
    }
  });
});
