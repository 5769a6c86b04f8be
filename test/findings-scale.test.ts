/**
 * A VM with 120,000 bad disks (a 5 MB file, under the 8 MiB a file may be): 240,000 findings. Each is
 * counted and the JSON document holds them all; text prints the first 1,000 and says how many more;
 * nothing passes them to a call as arguments (that was a RangeError, exit 2).
 */
import { run } from '../src/cli/main';
import { removeDir, scratchProject } from './helpers';

function itgen(cwd: string, ...argv: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = run(argv, { out: (s) => (out += `${s}\n`), err: (s) => (err += `${s}\n`), cwd, color: false, stdin: () => '' });
  return { code, out, err };
}

describe('findings at scale', () => {
  it('a VM with 120,000 bad disks: every finding counted, the first 1,000 printed, JSON has them all, no crash', () => {
    const disks = Array.from({ length: 120_000 }, (_, i) => `          - {name: d${i}, disk: {bus: x}}`).join('\n');
    const vm = `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: big\nspec:\n  runStrategy: Halted\n  template:\n    spec:\n      domain:\n        memory: {guest: 1Gi}\n        devices:\n          disks:\n${disks}\n`;
    const dir = scratchProject({ 'vm.yaml': vm });
    try {
      const text = itgen(dir, 'validate', 'vm.yaml');
      expect(text.code).toBe(1);
      expect(text.err.match(/ error IT8003 /g)?.length).toBe(1000);
      expect(text.err).toContain('... and 239000 more not shown (the first 1000 are above; --format json lists every one)');
      expect(text.err).toMatch(/240000 errors, 0 warnings\n?$/);
      const json = JSON.parse(itgen(dir, 'validate', 'vm.yaml', '--format', 'json').out) as { diagnostics: unknown[] };
      expect(json.diagnostics.length).toBe(240_000);
    } finally {
      removeDir(dir);
    }
  }, 120_000);
});
