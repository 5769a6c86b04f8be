/**
 * What a hostile pull request controls (the committed output, names and values in
 * every input, standard input, the layout under output/) and the mistakes that used to pass in
 * silence. Each class asserts the exit code, the place, and that nothing outside was printed or
 * written. The fuzz run at the end feeds hostile names and values through every command and format.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, ftruncateSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { parse, parseAllDocuments } from 'yaml';
import { generate, openProject } from '../src';
import { WORKFLOW_COMMAND_LINE } from '../src/printable';
import { removeTree } from '../src/emit/write';
import { DEFAULT_GENERATOR, readDirTree, removeDir, REPO, scratchProject, TINY_CATALOG } from './helpers';
import { runInProcess, type CliRun } from './e2e-helpers';

const itgen = (cwd: string, argv: readonly string[], stdin = ''): CliRun => runInProcess(cwd, argv, { stdin });

const FORGED = '::error file=README.md::forged';
const HOSTILE = [`x\n${FORGED}`, `x\r${FORGED}`, `x\u2028${FORGED}`, `x\n  ##[error]forged`, 'x\u001b]0;title\u0007\u001b[2J', 'x\u202eevil'];

/** Raw controls that may not reach a terminal (colour is off in these runs: no ESC at all). */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** The only workflow commands itgen means: one annotation per line, from `--format github`. */
const OUR_ANNOTATION = /^::(error|warning) (?:file=[^,:]*,line=\d+,col=\d+(?:,endLine=\d+)?,)?title=IT\d{4}::/;

/** No line that a CI runner would read as a workflow command that itgen did not mean; no raw control character. */
function expectSafe(r: CliRun, what: string): void {
  for (const line of r.text.split('\n')) {
    if (WORKFLOW_COMMAND_LINE.test(line)) expect([what, line]).toEqual([what, expect.stringMatching(OUR_ANNOTATION)]);
  }
  expect([what, RAW_CONTROL.exec(r.text)?.[0]]).toEqual([what, undefined]);
  expect(r.text).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n|internal error/);
}

function project(extra: Record<string, string> = {}): string {
  const dir = scratchProject({ 'generators/t.yaml': DEFAULT_GENERATOR, 'catalog/catalog.yaml': TINY_CATALOG, ...extra });
  expect(itgen(dir, ['generate']).code).toBe(0);
  return dir;
}

const committedFile = (dir: string): string => path.join(dir, 'output/VirtualMachineClusterInstancetypes/virtualmachineclusterinstancetypes.yaml');

describe('the committed output is attacker input', () => {
  it.each(['text', 'json', 'github'])('check and diff print forged names from output/ as data (--format %s)', (format) => {
    const dir = project();
    try {
      const file = committedFile(dir);
      writeFileSync(file, readFileSync(file, 'utf8').replace(/\n {2}name: c1\.large\n/, `\n  name: ${JSON.stringify(`x\n${FORGED}\u001b]0;t\u0007`)}\n`));
      const check = itgen(dir, ['check', '--format', format]);
      expect(check.code).toBe(1);
      expectSafe(check, `check ${format}`);
      expect(check.text).toContain('output/VirtualMachineClusterInstancetypes/virtualmachineclusterinstancetypes.yaml');
      const diff = itgen(dir, ['diff', '--format', format]);
      expect(diff.code).toBe(0);
      expectSafe(diff, `diff ${format}`);
      if (format === 'text') expect(diff.text).toContain('- x\\n::error file=README.md::forged\\u001b]0;t\\u0007');
    } finally {
      removeDir(dir);
    }
  });
});

describe('newlines and escapes in text diagnostics', () => {
  it('a catalog key, a VM name, a file name and echoed arguments stay on their line', () => {
    const dir = project();
    try {
      writeFileSync(path.join(dir, 'catalog/catalog.yaml'), `${TINY_CATALOG.replace('name: t\n', `name: t\n${JSON.stringify(`k\n${FORGED}`)}: 1\n`)}`);
      const v = itgen(dir, ['validate']);
      expect(v.code).toBe(1);
      expect(v.text).toMatch(/catalog\/catalog\.yaml:3:1 error IT1202 unknown key `k\\u000a::error file=README\.md::forged`/);
      expectSafe(v, 'unknown key');
      writeFileSync(path.join(dir, 'catalog/catalog.yaml'), TINY_CATALOG);
      writeFileSync(
        path.join(dir, 'vm.yaml'),
        `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: ${JSON.stringify(`v\n${FORGED}`)}}\nspec:\n  instancetype: {name: ${JSON.stringify(`n\n${FORGED}`)}}\n  template: {spec: {domain: {devices: {}}}}\n  runStrategy: Always\n`,
      );
      const e = itgen(dir, ['expand', 'vm.yaml']);
      expect(e.code).toBe(1);
      expect(e.text).toMatch(/vm\.yaml:5:\d+ error IT8001/);
      expectSafe(e, 'vm name');
      mkdirSync(path.join(dir, `d\n${FORGED}`));
      writeFileSync(path.join(dir, `d\n${FORGED}`, 'x.yaml'), 'a: [\n');
      expectSafe(itgen(dir, ['expand', `d\n${FORGED}`]), 'file name');
      for (const argv of [
        ['-C', `nowhere\n${FORGED}`, 'validate'],
        ['bundle', '--version', 'v1.0.0', '--out', `output\n${FORGED}`],
        ['init', `x\n${FORGED}\u001b[2J`],
      ]) {
        const r = itgen(dir, argv);
        expectSafe(r, argv.join(' '));
      }
    } finally {
      removeDir(dir);
    }
  });
});

describe('bounded input', () => {
  const bin = path.join(REPO, 'bin', 'itgen');
  it.each([['expand', '-'], ['fn'], ['migrate', 'presets', '--out', 'm', '-']])(
    '%s refuses a stream that never ends (/dev/zero), exit 1, in bounded memory',
    (...argv) => {
      const dir = project();
      const zero = openSync('/dev/zero', 'r');
      try {
        const r = spawnSync('/usr/bin/time', ['-f', 'maxrss=%M', bin, ...argv], { cwd: dir, stdio: [zero, 'pipe', 'pipe'], encoding: 'utf8', timeout: 60_000 });
        expect(r.status).toBe(1);
        expect(r.stderr).toMatch(/cannot read standard input: it is larger than 8 MiB, the most itgen reads/);
        const rss = Number(/maxrss=(\d+)/.exec(r.stderr)?.[1] ?? 0);
        if (rss > 0) expect(rss).toBeLessThan(400 * 1024); // KiB: the input is refused after 8 MiB
      } finally {
        closeSync(zero);
        removeDir(dir);
      }
    },
  );
});

describe('inputs that used to exit 2', () => {
  it('130,000 tiny documents in one file: exit 1 at the file', () => {
    const dir = project();
    try {
      writeFileSync(path.join(dir, 'many.yaml'), Array.from({ length: 130_000 }, (_, i) => `---\na: ${i}\n`).join(''));
      const r = itgen(dir, ['expand', 'many.yaml']);
      expect(r.code).toBe(1);
      expect(r.text).toContain('many.yaml:1:1 error IT1001 file holds 130000 YAML documents, more than the 50000 itgen reads from one file');
    } finally {
      removeDir(dir);
    }
  });

  it('a VM field nested 1,300 deep: exit 1 where it passes the bound', () => {
    const dir = project();
    try {
      let vm =
        'apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: v}\nspec:\n  instancetype: {name: c1.large}\n  template:\n    spec:\n      domain:\n        devices: {}\n';
      for (let i = 0; i < 1300; i++) vm += `${' '.repeat(8 + 2 * i)}x:\n`;
      vm += `${' '.repeat(8 + 2 * 1300)}y: 1\n`;
      writeFileSync(path.join(dir, 'deep.yaml'), vm);
      const r = itgen(dir, ['expand', 'deep.yaml']);
      expect(r.code).toBe(1);
      expect(r.text).toMatch(/deep\.yaml:\d+:\d+ error IT1002 document 1 nests deeper than 100 levels/);
    } finally {
      removeDir(dir);
    }
  });

  it('a 300-level directory chain of long names in a catalog, and a 600 MB catalog file: exit 1', () => {
    const dir = project();
    try {
      let p = path.join(dir, 'catalog');
      const name = 'a'.repeat(100);
      // Created with relative paths: the chain is longer than PATH_MAX.
      const script = `import os\nos.chdir(${JSON.stringify(p)})\nfor i in range(300):\n  os.mkdir(${JSON.stringify(name)}); os.chdir(${JSON.stringify(name)})\nopen('x.yaml','w').write('kind: Family\\n')\n`;
      expect(spawnSync('python3', ['-c', script]).status).toBe(0);
      const r = itgen(dir, ['validate']);
      expect(r.code).toBe(1);
      expect(r.text).toMatch(/error IT1008 directories nested deeper than 32 levels under `catalog` are not read/);
      p = path.join(dir, 'catalog', 'big.yaml');
      const fd = openSync(p, 'w');
      ftruncateSync(fd, 600 * 1024 * 1024);
      closeSync(fd);
      const big = itgen(dir, ['validate']);
      expect(big.code).toBe(1);
      expect(big.text).toContain('catalog/big.yaml:1:1 error IT1001 cannot read file: it is larger than 8 MiB, the most itgen reads from one file');
    } finally {
      removeDir(dir);
    }
  });

  it.each([
    [
      'annotation values that are not strings',
      'metadata:\n  name: a\n  annotations: {x: 5, y: {a: 1}}\n  labels: {l: [1]}\nspec: {cpu: {guest: 1}, memory: {guest: 1Gi}}',
      /a\.yaml:\d+:\d+ error IT3001 metadata: json: cannot unmarshal number into Go struct field ObjectMeta\.annotations of type string/,
    ],
    ['memory.guest: true', 'metadata: {name: a}\nspec: {cpu: {guest: 1}, memory: {guest: true}}', /error IT3001 .*memory\.guest/],
    ['spec: null', 'metadata: {name: a}\nspec: null', /a\.yaml:\d+:\d+ error IT3001 spec: Required value/],
  ])('validate FILE, %s: exit 1 at the line', (_what, body, expected) => {
    const dir = project();
    try {
      writeFileSync(path.join(dir, 'a.yaml'), `apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachineInstancetype\n${body}\n`);
      const r = itgen(dir, ['validate', 'a.yaml']);
      expect(r.code).toBe(1);
      expect(r.text).toMatch(expected);
      expect(r.text).not.toMatch(/IT9001|internal error/);
    } finally {
      removeDir(dir);
    }
  });

  it('validate FILE, enums set to constructor, __proto__, toString: exit 1, no prototype lookups', () => {
    const dir = project();
    try {
      writeFileSync(
        path.join(dir, 'p.yaml'),
        'apiVersion: instancetype.kubevirt.io/v1beta1\nkind: VirtualMachinePreference\nmetadata: {name: p}\nspec:\n  cpu: {preferredCPUTopology: constructor}\n  devices: {preferredDiskBus: __proto__, preferredInterfaceModel: toString}\n  preferredArchitecture: hasOwnProperty\n',
      );
      const r = itgen(dir, ['validate', 'p.yaml']);
      expect(r.code).toBe(1);
      expect(r.text).toContain('p.yaml:5:31 error IT4003 unknown preferredCPUTopology constructor');
      expect(r.text).not.toMatch(/IT9001|internal error/);
    } finally {
      removeDir(dir);
    }
  });
});

describe('leftovers under output/', () => {
  it('a directory chain deeper than PATH_MAX, a FIFO and links: check reports them, generate refuses to replace what it did not write, and is clean once they are gone', () => {
    const dir = project();
    try {
      const out = path.join(dir, 'output');
      const script = `import os\nos.chdir(${JSON.stringify(out)})\nfor i in range(300):\n  os.mkdir('d' * 100); os.chdir('d' * 100)\nopen('x.yaml','w').write('kind: x\\n')\n`;
      expect(spawnSync('python3', ['-c', script]).status).toBe(0);
      expect(spawnSync('mkfifo', [path.join(out, 'fifo.yaml')]).status).toBe(0);
      symlinkSync('/etc', path.join(out, 'etc'));
      symlinkSync('/etc/passwd', path.join(out, 'passwd.yaml'));
      const check = itgen(dir, ['check']);
      expect(check.code).toBe(1);
      expect(check.text).toContain(`would replace \`${'d'.repeat(100)}/\``);
      expect(check.text).not.toContain('root:');
      const refused = itgen(dir, ['generate']);
      expect(refused.code).toBe(1);
      expect(refused.text).toContain(`is not a base itgen wrote: generating would replace \`${'d'.repeat(100)}/\`, \`etc\`, \`fifo.yaml\`, \`passwd.yaml\``);
      expect(readdirSync(out).filter((n) => n.includes('d'.repeat(100)) || ['etc', 'fifo.yaml', 'passwd.yaml'].includes(n))).toHaveLength(4);
      for (const n of readdirSync(out).filter((n) => !/^(VirtualMachine|kustomization|README)/.test(n))) removeTree(path.join(out, n));
      expect(itgen(dir, ['generate']).code).toBe(0);
      expect(readdirSync(dir).filter((n) => n.includes('itgen-'))).toEqual([]);
      expect(itgen(dir, ['check']).code).toBe(0);
      expect(existsSync('/etc/passwd')).toBe(true);
    } finally {
      removeDir(dir);
    }
  });
});

describe('a closed pipe', () => {
  it('itgen build | head ends quietly with the command’s exit code, no stack trace', () => {
    const r = spawnSync(
      'bash',
      ['-c', `set -o pipefail; ${JSON.stringify(path.join(REPO, 'bin', 'itgen'))} build -g generators/common-instancetypes.yaml | head -c 10 >/dev/null`],
      {
        cwd: REPO,
        encoding: 'utf8',
      },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});

describe('mistakes that used to pass in silence', () => {
  it('an import exclude that names nothing is IT7201 at the entry, with a did-you-mean', () => {
    const base = TINY_CATALOG.replace('name: t\n', 'name: base\n');
    const dir = scratchProject({
      'generators/t.yaml': DEFAULT_GENERATOR,
      'base/catalog.yaml': base,
      'catalog/catalog.yaml': 'kind: Catalog\nname: t\nimports:\n  - path: ../base\n    exclude: {families: [cc], preferences: [mylinux, mylinx]}\n',
    });
    try {
      const r = itgen(dir, ['validate']);
      expect(r.code).toBe(1);
      expect(r.text).toContain('catalog/catalog.yaml:5:26 error IT7201 imports[0].exclude.families: `cc` matches nothing in import `../base`');
      expect(r.text).toContain('hint: did you mean `c`?');
      expect(r.text).toMatch(/catalog\/catalog\.yaml:5:\d+ error IT7201 imports\[0\]\.exclude\.preferences: `mylinx` matches nothing/);
      expect(r.text).not.toMatch(/exclude\.preferences: `mylinux`/);
    } finally {
      removeDir(dir);
    }
  });

  it('with -g naming one generator, a base another generator writes is not reported as written by none (IT5013)', () => {
    const dir = scratchProject({
      'generators/a.yaml': 'catalog: ../catalog\noutput: ../output/a\nvendor: kubevirt.io\n',
      'generators/b.yaml': 'catalog: ../catalog\noutput: ../output/b\nvendor: kubevirt.io\nscopes: [namespaced]\n',
      'catalog/catalog.yaml': TINY_CATALOG,
    });
    try {
      writeFileSync(path.join(dir, 'kustomization.yaml'), 'resources:\n  - output/a\n  - output/b\n');
      expect(itgen(dir, ['generate']).code).toBe(0);
      for (const g of ['a', 'b']) {
        for (const cmd of ['generate', 'validate']) {
          const r = itgen(dir, [cmd, '-g', `generators/${g}.yaml`]);
          expect([r.code, r.text]).toEqual([0, cmd === 'generate' ? `${g}: output/${g} is up to date (${g === 'a' ? 6 : 3} objects)\n` : '']);
        }
      }
      // The other generator's base still counts only while a generator writes it.
      rmSync(path.join(dir, 'generators/b.yaml'));
      expect(itgen(dir, ['validate', '-g', 'generators/a.yaml']).text).toContain(
        'kustomization.yaml:3:5 error IT5013 kustomization.yaml deploys `output/b`, a base itgen wrote that no generator writes any more',
      );
    } finally {
      removeDir(dir);
    }
  });

  it('a typo in output: the new base is deployed by nothing (IT5012) and the deployed one is written by no generator (IT5013)', () => {
    const dir = scratchProject({
      'generators/t.yaml': 'catalog: ../catalog\noutput: ../output/t\nvendor: kubevirt.io\n',
      'catalog/catalog.yaml': TINY_CATALOG,
    });
    try {
      writeFileSync(path.join(dir, 'kustomization.yaml'), 'resources:\n  - output/t\n');
      expect(itgen(dir, ['generate']).code).toBe(0);
      writeFileSync(
        path.join(dir, 'flux.yaml'),
        'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: it}\nspec: {path: ./output/t, targetNamespace: vms}\n',
      );
      expect(itgen(dir, ['validate']).text).toBe('');
      writeFileSync(path.join(dir, 'generators/t.yaml'), 'catalog: ../catalog\noutput: ../ouput/t\nvendor: kubevirt.io\n');
      const r = itgen(dir, ['validate']);
      expect(r.code).toBe(1);
      expect(r.text).toContain('generators/t.yaml:2:9 warning IT5012 output `ouput/t` of generator `t` is deployed by nothing');
      expect(r.text).toContain('hint: did you mean `output/t`?');
      expect(r.text).toContain(
        'kustomization.yaml:2:5 error IT5013 kustomization.yaml deploys `output/t`, a base itgen wrote that no generator writes any more',
      );
      expect(r.text).toMatch(/flux\.yaml:4:\d+ error IT5013 Flux Kustomization `it` deploys `output\/t`/);
      const g = itgen(dir, ['generate']);
      expect(g.code).toBe(1);
      expect(existsSync(path.join(dir, 'ouput'))).toBe(false);
    } finally {
      removeDir(dir);
    }
  });

  it('suppressWarnings with an unknown code or an error code is refused at the entry', () => {
    const dir = scratchProject({
      'generators/t.yaml': `${DEFAULT_GENERATOR}suppressWarnings: [IT5060, IT7102, IT5007]\n`,
      'catalog/catalog.yaml': TINY_CATALOG,
    });
    try {
      const r = itgen(dir, ['validate']);
      expect(r.code).toBe(1);
      expect(r.text).toContain('generators/t.yaml:4:20 error IT1009 suppressWarnings: `IT5060` is not a diagnostic code of itgen');
      expect(r.text).toMatch(/hint: did you mean `IT50\d\d`\?/);
      expect(r.text).toMatch(/generators\/t\.yaml:4:28 error IT1009 suppressWarnings: `IT7102` \(.*\) is always an error; errors cannot be suppressed/);
      expect(r.text).not.toMatch(/`IT5007`/);
    } finally {
      removeDir(dir);
    }
  });

  it('one YAML error in one VM file hides no other VM: every readable one is expanded and judged, exit 1', () => {
    const dir = project();
    try {
      const vm = (name: string, it: string): string =>
        `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: ${name}}\nspec:\n  instancetype: {name: ${it}, kind: VirtualMachineClusterInstancetype}\n  template: {spec: {domain: {devices: {}}}}\n  runStrategy: Always\n`;
      mkdirSync(path.join(dir, 'vms'));
      writeFileSync(path.join(dir, 'vms/a.yaml'), vm('a', 'c1.large'));
      writeFileSync(path.join(dir, 'vms/b.yaml'), 'a: [\n');
      writeFileSync(path.join(dir, 'vms/c.yaml'), vm('c', 'nope'));
      const r = itgen(dir, ['expand', 'vms']);
      expect(r.code).toBe(1);
      expect(r.out).toContain('name: a');
      expect(r.err).toMatch(/vms\/b\.yaml:1:5 error IT1002/);
      expect(r.err).toMatch(/vms\/c\.yaml:5:\d+ error IT8001/);
    } finally {
      removeDir(dir);
    }
  });

  it("the library's generate() has the CLI's guards: overlapping outputs and the removal guard", () => {
    const dir = project();
    try {
      writeFileSync(path.join(dir, 'catalog/catalog.yaml'), TINY_CATALOG.replace('  - {name: large, cpu: 2}\n', ''));
      const before = readDirTree(path.join(dir, 'output'));
      const removal = generate(openProject({ root: dir }));
      expect(removal.written).toEqual([]);
      expect(removal.diagnostics.map((d) => d.code)).toContain('IT7401');
      expect(readDirTree(path.join(dir, 'output'))).toEqual(before);
      expect(generate(openProject({ root: dir }), { allowRemovals: true }).written).toEqual(['output']);
      writeFileSync(path.join(dir, 'generators/u.yaml'), 'catalog: ../catalog\noutput: ../output/sub\nvendor: kubevirt.io\n');
      const overlap = generate(openProject({ root: dir }));
      expect(overlap.written).toEqual([]);
      expect(overlap.diagnostics.map((d) => d.code)).toContain('IT1009');
    } finally {
      removeDir(dir);
    }
  });
});

describe('fuzz: hostile names and values through every command and format', () => {
  const outside = path.join(os.tmpdir(), 'itgen-trust-outside');
  it('no output line could be read as a workflow command itgen did not mean; no raw control character; exit 0 or 1', () => {
    fc.assert(
      fc.property(fc.constantFrom(...HOSTILE), fc.constantFrom('key', 'description', 'vm', 'committed', 'preset'), (h, where) => {
        const dir = project();
        try {
          const catalog = path.join(dir, 'catalog/catalog.yaml');
          if (where === 'key') writeFileSync(catalog, TINY_CATALOG.replace('name: t\n', `name: t\n${JSON.stringify(h)}: 1\n`));
          if (where === 'description') writeFileSync(catalog, TINY_CATALOG.replace('description: Compute', `description: ${JSON.stringify(`Compute ${h}`)}`));
          if (where === 'committed') {
            const file = committedFile(dir);
            writeFileSync(file, readFileSync(file, 'utf8').replace(/\n {2}name: c1\.large\n/, `\n  name: ${JSON.stringify(h)}\n`));
          }
          writeFileSync(
            path.join(dir, 'vm.yaml'),
            `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: ${JSON.stringify(where === 'vm' ? h : 'v')}, annotations: {a: ${JSON.stringify(h)}}}\nspec:\n  instancetype: {name: ${JSON.stringify(where === 'vm' ? h : 'c1.large')}, kind: VirtualMachineClusterInstancetype}\n  template: {spec: {domain: {devices: {}}}}\n  runStrategy: Always\n`,
          );
          writeFileSync(
            path.join(dir, 'preset.yaml'),
            `apiVersion: kubevirt.io/v1\nkind: VirtualMachineInstancePreset\nmetadata: {name: ${JSON.stringify(where === 'preset' ? h : 'p')}}\nspec:\n  selector: {matchLabels: {a: b}}\n  domain: {cpu: {cores: 2}}\n`,
          );
          for (const format of ['text', 'json', 'github']) {
            for (const argv of [
              ['validate'],
              ['check'],
              ['diff'],
              ['build'],
              ['matrix'],
              ['explain', 'c1.large'],
              ['expand', 'vm.yaml'],
              ['validate', 'vm.yaml'],
              ['migrate', 'presets', '--out', 'migrated', 'preset.yaml', 'vm.yaml'],
            ]) {
              const r = itgen(dir, [...argv, '--format', format]);
              const what = `${where} ${JSON.stringify(h)} ${argv.join(' ')} --format ${format}`;
              expect([what, r.code === 0 || r.code === 1]).toEqual([what, true]);
              expectSafe(r, what);
              expect(r.text).not.toContain(outside);
            }
          }
        } finally {
          removeDir(dir);
        }
      }),
      { numRuns: 12, seed: 19 },
    );
  });
});

describe('a right-to-left mark in a description', () => {
  it('is escaped inside double quotes in the base, in build and in fn alike, so all three carry the same value', () => {
    const dir = project({ 'catalog/catalog.yaml': TINY_CATALOG.replace('description: Compute\n', 'description: "Compute \u200f for \u200e all"\n') });
    try {
      const base = readFileSync(committedFile(dir), 'utf8');
      expect(base).toContain('"Compute \\u200F for \\u200E all"');
      expect(RAW_CONTROL.exec(base)).toBeNull();
      expect(base).not.toContain('\u200f');
      const build = itgen(dir, ['build']);
      expect(build.code).toBe(0);
      expect(build.text).not.toContain('\u200f');
      const values = (text: string): unknown[] =>
        parseAllDocuments(text)
          .map((d) => d.toJS() as { kind?: string; metadata?: { annotations?: Record<string, string> } } | null)
          .filter((o) => o?.kind === 'VirtualMachineClusterInstancetype')
          .map((o) => o!.metadata!.annotations!['instancetype.kubevirt.io/description']);
      expect(values(build.text)).toEqual(values(base));
      expect(values(base)).toContain('Compute \u200f for \u200e all');
      // fn: a KRM ResourceList in, the same objects out.
      const list = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n  apiVersion: itgen.dev/v1alpha1\n  kind: Generator\n  metadata: {name: t}\n${readFileSync(
        path.join(dir, 'generators/t.yaml'),
        'utf8',
      )
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => `  ${l}`)
        .join('\n')}\n`;
      const fn = runInProcess(dir, ['fn'], { stdin: list });
      expect([fn.code, fn.err]).toEqual([0, '']);
      expect(fn.out).not.toContain('\u200f');
      const fnValues = (parse(fn.out) as { items: { kind: string; metadata: { annotations: Record<string, string> } }[] }).items
        .filter((o) => o.kind === 'VirtualMachineClusterInstancetype')
        .map((o) => o.metadata.annotations['instancetype.kubevirt.io/description']);
      expect(fnValues).toEqual(values(base));
      expect(itgen(dir, ['check']).code).toBe(0);
    } finally {
      removeDir(dir);
    }
  });
});
