/**
 * Failures on the command line and in the committed output: failures
 * carry a JSON diagnostic with --format json (explain, -C, option and command errors), files found
 * through a linked operand directory are named from the operand, and kinds named after
 * Object.prototype's members print as themselves.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runInProcess, type CliRun } from './e2e-helpers';
import { DEFAULT_GENERATOR, removeDir, scratchProject, TINY_CATALOG } from './helpers';

const itgen = (cwd: string, argv: string[]): CliRun => runInProcess(cwd, argv);

function project(): string {
  const dir = scratchProject({ 'generators/t.yaml': DEFAULT_GENERATOR, 'catalog/catalog.yaml': TINY_CATALOG });
  expect(itgen(dir, ['generate']).code).toBe(0);
  return dir;
}

describe('failures in --format json are JSON diagnostics', () => {
  it.each([
    [['explain', 'c1.smal'], 'no object named `c1.smal`'],
    [['-C', 'no-such-dir', 'validate'], '-C no-such-dir: no such directory'],
    [['validate', '--bogus'], 'unknown option `--bogus` for validate'],
    [['frobnicate'], 'unknown command `frobnicate`'],
  ])('%j', (argv, message) => {
    const dir = project();
    try {
      const json = itgen(dir, [...argv, '--format', 'json']);
      expect(json.code).toBe(1);
      const parsed = JSON.parse(json.out) as { diagnostics: { code: string; message: string; hint?: string }[] };
      expect(parsed.diagnostics).toContainEqual(expect.objectContaining({ code: 'IT1011', message }));
      expect(json.err).toBe('');
      const github = itgen(dir, [...argv, '--format=github']);
      expect(github.code).toBe(1);
      expect(github.out).toMatch(/^::error title=IT1011::/m);
      const text = itgen(dir, argv);
      expect(text.code).toBe(1);
      expect(text.err).toContain(message);
    } finally {
      removeDir(dir);
    }
  });

  it('explain keeps its did-you-mean, as the hint', () => {
    const dir = project();
    try {
      const r = itgen(dir, ['explain', 'c1.smal', '--format', 'json']);
      expect(JSON.parse(r.out)).toMatchObject({ diagnostics: [{ code: 'IT1011', hint: 'did you mean `c1.small`?' }] });
    } finally {
      removeDir(dir);
    }
  });
});

describe('diff --against FILE', () => {
  it('reads the file bounded, as every input: a 300 MB file is refused before it is read', () => {
    const dir = project();
    try {
      writeFileSync(path.join(dir, 'huge.yaml'), '');
      // Sparse: no disk is written, and an unbounded reader would still read 300 MB.
      truncateSync(path.join(dir, 'huge.yaml'), 300 * 1024 * 1024);
      const r = itgen(dir, ['diff', '--against', 'huge.yaml']);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/IT7301 cannot read huge\.yaml: it is larger than/);
    } finally {
      removeDir(dir);
    }
  });
});

describe('--kubevirt-version', () => {
  it('takes a minor release as its line; a release it does not model is answered as one, and says which', () => {
    const dir = project();
    try {
      writeFileSync(
        path.join(dir, 'vm.yaml'),
        'apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: web, namespace: apps}\nspec:\n  runStrategy: Always\n  instancetype: {name: c1.small}\n  template: {spec: {domain: {devices: {}}}}\n',
      );
      const minor = itgen(dir, ['validate', 'vm.yaml', '--kubevirt-version', 'v1.7']);
      expect([minor.code, minor.err]).toEqual([0, '']);
      const patch = itgen(dir, ['validate', 'vm.yaml', '--kubevirt-version', 'v1.7.0']);
      expect(patch.code).toBe(0);
      expect(patch.err).toMatch(/warning IT6003 KubeVirt v1\.7\.0 is not among the modelled releases \([^)]*\): answered as v1\.7\.4/);
      expect(itgen(dir, ['validate', 'vm.yaml', '--kubevirt-version', 'v1']).err).toMatch(
        /--kubevirt-version is a KubeVirt release like v1\.8\.4, or a minor release like v1\.8/,
      );
    } finally {
      removeDir(dir);
    }
  });
});

describe('operands', () => {
  it('files found through a linked operand directory are named from the operand, never by absolute path', () => {
    const dir = project();
    const outside = mkdtempSync(path.join(os.tmpdir(), 'itgen-vms-'));
    try {
      mkdirSync(path.join(outside, 'team'));
      writeFileSync(
        path.join(outside, 'team', 'vm.yaml'),
        'apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: x}\nspec:\n  instancetype: {name: c1.smal}\n  template: {spec: {domain: {devices: {}}}}\n',
      );
      symlinkSync(outside, path.join(dir, 'vms'));
      for (const operand of ['vms', 'vms/']) {
        const r = itgen(dir, ['validate', operand]);
        expect(r.code).toBe(1);
        expect(r.err).toContain('vms/team/vm.yaml:5:24 error IT8001');
        expect(r.err).not.toContain(outside);
      }
    } finally {
      removeDir(dir);
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('kinds named after members of Object.prototype', () => {
  it('print as their names in the diff of a committed base, in every format', () => {
    const dir = project();
    try {
      const file = path.join(dir, 'output/VirtualMachineClusterInstancetypes/virtualmachineclusterinstancetypes.yaml');
      for (const kind of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
        appendFileSync(file, `---\napiVersion: instancetype.kubevirt.io/v1beta1\nkind: ${kind}\nmetadata: {name: z-${kind.toLowerCase()}}\nspec: {}\n`);
      for (const output of ['text', 'markdown', 'json']) {
        const r = itgen(dir, ['diff', '-o', output]);
        expect([output, r.code]).toEqual([output, 0]);
        expect(r.out).not.toMatch(/function|native code|\[object/);
      }
      const md = itgen(dir, ['diff', '-o', 'markdown']).out;
      expect(md).toContain('| removed | `constructor` | `z-constructor` |');
      expect(md).toContain('| removed | `toString` | `z-tostring` |');
    } finally {
      removeDir(dir);
    }
  });
});
