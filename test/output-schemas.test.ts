/**
 * The JSON Schemas (2020-12) of every command's `-o json` output (schema/output/, shipped in the
 * package), generated from the output types (tools/output-schemas.mjs): the committed files are what
 * the types give; each command run on a sample project, its output validated against its schema;
 * and each schema refuses a near-miss (so none is a schema that takes anything).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { itgen } from './e2e-helpers';
import { removeDir, scratchProject, UPSTREAM_BUNDLE } from './helpers';
import { vmYaml, WINDOWS_11_TEMPLATE } from './vm-samples';

const SCHEMAS = path.join(__dirname, '..', 'schema', 'output');
const ajv = new Ajv2020({ strict: false, allErrors: true });
const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
const schema = (name: string): ReturnType<typeof ajv.compile> => {
  if (!compiled.has(name)) compiled.set(name, ajv.compile(JSON.parse(readFileSync(path.join(SCHEMAS, `${name}.schema.json`), 'utf8'))));
  return compiled.get(name)!;
};

const VM = vmYaml('vm1', 'u1.medium', 'fedora', 'Always');
const TWO_VMS = `${VM}---\n${vmYaml('vm2', 'u1.large', 'fedora', 'Always')}`;
const TEMPLATE = WINDOWS_11_TEMPLATE;

describe("every command's -o json output has a JSON Schema, and validates against it", () => {
  const dir = scratchProject({ 'vm.yaml': VM, 'two.yaml': TWO_VMS, 'tpl.yaml': TEMPLATE });
  copyFileSync(UPSTREAM_BUNDLE, path.join(dir, 'bundle.yaml'));
  copyFileSync(path.join(__dirname, 'fixtures', 'fit', 'nodes.yaml'), path.join(dir, 'nodes.yaml'));
  copyFileSync(path.join(__dirname, 'fixtures', 'common-templates', 'rendered', 'windows11-desktop-medium.yaml'), path.join(dir, 'ct.yaml'));
  afterAll(() => removeDir(dir));
  const json = (...args: string[]): unknown => JSON.parse(itgen(dir, ...args).stdout);

  const runs: [string, string[][]][] = [
    [
      'expand',
      [
        ['expand', 'vm.yaml', '--with', 'bundle.yaml', '-o', 'json'],
        ['expand', 'two.yaml', '--with', 'bundle.yaml', '-o', 'json'],
        ['expand', 'two.yaml', '--with', 'bundle.yaml', '--as', 'vmi', '-o', 'json'],
        ['expand', 'vm.yaml', '--with', 'bundle.yaml', '--as', 'pod', '-o', 'json'],
      ],
    ],
    ['facts', [['facts', '--with', 'bundle.yaml', '-o', 'json']]],
    [
      'fit',
      [
        ['fit', '--nodes', 'nodes.yaml', 'vm.yaml', '--with', 'bundle.yaml', '-o', 'json'],
        ['fit', '--nodes', 'nodes.yaml', '--with', 'bundle.yaml', '-o', 'json'],
        ['fit', '--nodes', 'nodes.yaml', '--together', 'two.yaml', '--with', 'bundle.yaml', '-o', 'json'],
      ],
    ],
    [
      'resize',
      [
        ['resize', 'vm.yaml', '--to', 'u1.large', '--with', 'bundle.yaml', '-o', 'json'],
        ['resize', 'vm.yaml', '--plan', '--with', 'bundle.yaml', '-o', 'json'],
        ['resize', 'vm.yaml', '--to', 'u1.nosuch', '--with', 'bundle.yaml', '-o', 'json'],
      ],
    ],
    [
      'select',
      [
        ['select', '--with', 'bundle.yaml', '--cpu', '2', '-o', 'json'],
        ['select', '--with', 'bundle.yaml', '--os', 'windows 11', '-o', 'json'],
      ],
    ],
    ['template-process', [['template', 'process', 'tpl.yaml', '-o', 'json']]],
    ['template-sweep', [['template', 'sweep', 'tpl.yaml', '--with', 'bundle.yaml', '-o', 'json']]],
    ['migrate-templates', [['migrate', 'templates', 'ct.yaml', '--with', 'bundle.yaml', '-o', 'json']]],
    ['policy', [['policy', '--with', 'bundle.yaml', '-o', 'json']]],
    [
      'diagnostics',
      [
        ['validate', 'tpl.yaml', '--with', 'bundle.yaml', '--format', 'json'],
        ['validate', 'vm.yaml', '--with', 'bundle.yaml', '--format', 'json'],
      ],
    ],
  ];

  it('the committed schemas are what the output types give', () => {
    const r = spawnSync(process.execPath, [path.join(__dirname, '..', 'tools', 'output-schemas.mjs'), '--check'], { encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([0, '']);
  });

  it.each(runs)('%s', (name, commands) => {
    const check = schema(name);
    for (const c of commands) {
      const out = json(...c);
      if (!check(out)) throw new Error(`${c.join(' ')}: ${ajv.errorsText(check.errors)}`);
    }
  });

  it('diff and notes (a project with a release and a change)', () => {
    const project = scratchProject({});
    try {
      writeFileSync(path.join(project, 'bundle.yaml'), readFileSync(path.join(dir, 'bundle.yaml')));
      expect(itgen(project, 'init', '--name', 'acme').code).toBe(0);
      expect(itgen(project, 'generate').code).toBe(0);
      expect(itgen(project, 'release', '--version', 'v1.0.0').code).toBe(0);
      const notes = schema('notes');
      expect(notes(JSON.parse(itgen(project, 'notes', '-o', 'json').stdout))).toBe(true);
      const diff = schema('diff');
      expect(diff(JSON.parse(itgen(project, 'diff', '-o', 'json').stdout))).toBe(true);
      const matrix = schema('matrix');
      expect(matrix(JSON.parse(itgen(project, 'matrix', '-o', 'json').stdout))).toBe(true);
    } finally {
      removeDir(project);
    }
  });

  it('covers every schema shipped, and each refuses a near-miss', () => {
    const names = readdirSync(SCHEMAS)
      .map((f) => f.replace('.schema.json', ''))
      .sort();
    const mcp = ['mcp-select', 'mcp-validate', 'mcp-expand', 'mcp-fit', 'mcp-resize', 'mcp-template-process'];
    expect(names).toEqual([...runs.map(([n]) => n), 'diff', 'notes', 'matrix', ...mcp].sort());
    const nearMiss: Record<string, unknown> = {
      expand: { kind: 'VirtualMachine' },
      facts: { generators: [{ generator: 1 }] },
      fit: { vms: [{ name: 'x' }] },
      resize: { outcome: 'maybe' },
      select: { instancetypes: [{ name: 'x' }] },
      'template-process': { vm: {} },
      'template-sweep': [{ parameter: 'X' }],
      'migrate-templates': [{ name: 'x' }],
      policy: { apiVersion: 'v1', kind: 'Pod', items: [] },
      diagnostics: { diagnostics: [{ code: 'E1', severity: 'error', message: 'x' }] },
      diff: { generators: [{ generator: 'g' }] },
      notes: { generators: [{ generator: 'g' }] },
      matrix: { generators: [{ generator: 'g', matrix: { instancetypes: [], preferences: [], pairs: [{ instancetype: 'x' }] } }] },
      'mcp-select': { passedOver: [{ instancetype: 'x' }] },
      'mcp-validate': { admitted: 'yes', diagnostics: [] },
      'mcp-expand': { vms: [{ kind: 'VirtualMachine' }], diagnostics: [] },
      'mcp-fit': { report: { vms: [{ name: 'x' }] }, diagnostics: [] },
      'mcp-resize': { plan: { outcome: 'maybe' }, diagnostics: [] },
      'mcp-template-process': { message: '', generated: { X: { value: 1 } }, diagnostics: [] },
    };
    for (const n of names) expect([n, schema(n)(nearMiss[n])]).toEqual([n, false]);
  });
});
