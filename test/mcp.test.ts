/**
 * `itgen mcp` driven by the Model Context Protocol SDK's own client over stdio: initialize, list the
 * tools, call each; every structuredContent checked against the tool's published outputSchema (by
 * the SDK client itself, and again here with Ajv's JSON Schema 2020-12 validator); refusals are
 * isError results with the actionable words; the select tool answers as `itgen select` does. The
 * other MCP server's KubeVirt evaluation tasks, replayed with common-instancetypes' names.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Ajv2020 from 'ajv/dist/2020';
import { itgen } from './e2e-helpers';
import { removeDir, scratchProject, UPSTREAM_BUNDLE } from './helpers';
import { templateYaml, vmYaml } from './vm-samples';

const REPO = path.join(__dirname, '..');

const VM = vmYaml('win', 'u1.medium', 'windows.11');

const TEMPLATE = templateYaml('    - name: NAME\n      value: app');

type Tool = { name: string; inputSchema: object; outputSchema?: object };
type Called = { content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

describe('itgen mcp, driven by the SDK client', () => {
  let dir: string;
  let client: Client;
  let tools: Tool[];
  const ajv = new Ajv2020({ strict: false, allErrors: true });

  beforeAll(async () => {
    dir = scratchProject({});
    copyFileSync(UPSTREAM_BUNDLE, path.join(dir, 'bundle.yaml'));
    copyFileSync(path.join(__dirname, 'fixtures', 'fit', 'nodes.yaml'), path.join(dir, 'nodes.yaml'));
    client = new Client({ name: 'itgen-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: path.join(REPO, 'bin', 'itgen'),
        args: ['-C', dir, 'mcp', '--with', 'bundle.yaml', '--nodes', 'nodes.yaml'],
        stderr: 'pipe',
      }),
    );
    tools = (await client.listTools()).tools as Tool[];
  }, 30_000);

  afterAll(async () => {
    await client.close();
    removeDir(dir);
  });

  const call = async (name: string, args: Record<string, unknown>): Promise<Called> => (await client.callTool({ name, arguments: args })) as Called;

  /**
   * The structured content, validated against the tool's published outputSchema and against the
   * schema generated from its type (schema/output/mcp-NAME.schema.json), as JSON Schema 2020-12.
   */
  const conforming = (name: string, r: Called): Record<string, unknown> => {
    const { $schema: _s, ...published } = tools.find((t) => t.name === name)!.outputSchema as Record<string, unknown>;
    const file = JSON.parse(readFileSync(path.join(REPO, 'schema', 'output', `mcp-${name.replace('_', '-')}.schema.json`), 'utf8')) as { $id: string };
    expect(r.isError).toBeFalsy();
    for (const check of [ajv.compile(published), ajv.getSchema(file.$id) ?? ajv.compile(file)])
      if (!check(r.structuredContent)) throw new Error(`${name}: ${ajv.errorsText(check.errors)}`);
    return r.structuredContent!;
  };

  it('lists select, validate, expand, fit, resize and template_process, each with an input and an output schema', () => {
    expect(tools.map((t) => t.name).sort()).toEqual(['expand', 'fit', 'resize', 'select', 'template_process', 'validate']);
    for (const t of tools) {
      expect(t.inputSchema).toEqual(expect.objectContaining({ type: 'object' }));
      expect(t.outputSchema).toEqual(expect.objectContaining({ type: 'object' }));
    }
  });

  it('select: "large" gives u1.large; "compute" a dedicated-CPU family; the same answer as itgen select', async () => {
    const large = conforming('select', await call('select', { os: 'fedora', size: 'large' }));
    expect(large['answer']).toEqual(expect.objectContaining({ preference: 'fedora', instancetype: expect.objectContaining({ name: 'u1.large' }) }));
    const compute = conforming('select', await call('select', { os: 'rhel 9', intent: 'compute' }));
    const it = (compute['answer'] as { instancetype: { name: string; class: string } }).instancetype;
    expect(['compute.exclusive', 'dedicated.vcpu']).toContain(it.class);
    const cli = JSON.parse(
      itgen(dir, 'select', '--with', 'bundle.yaml', '--nodes', 'nodes.yaml', '--os', 'rhel 9', '--intent', 'compute', '-o', 'json').stdout,
    );
    expect(cli).toEqual(compute);
    // The list's filters narrow the tool's decision as they narrow the command's.
    const cx = conforming('select', await call('select', { os: 'fedora', families: ['cx'], cpu: '4' }));
    expect(cx).toEqual(
      JSON.parse(itgen(dir, 'select', '--with', 'bundle.yaml', '--nodes', 'nodes.yaml', '--os', 'fedora', '--family', 'cx', '--cpu', '4', '-o', 'json').stdout),
    );
    expect((cx['answer'] as { instancetype: { name: string } }).instancetype.name).toMatch(/^cx1\./);
  });

  it('select: a small Windows 11 VM is refused with the nearest admitted pairs, never substituted', async () => {
    const r = await call('select', { os: 'windows 11', size: 'small' });
    expect(r.isError).toBe(true);
    const text = r.content.map((c) => c.text ?? '').join('\n');
    expect(text).toContain('insufficient CPU resources of 1 vCPU provided by instance type, preference requires 2 vCPU');
    expect(text).toContain('u1.2xmedium');
  });

  it('select: an unknown intent is refused with the known ones', async () => {
    const r = await call('select', { os: 'fedora', intent: 'c1' });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain('known: general');
  });

  it("validate: KubeVirt's words for a Windows 11 VM on u1.medium", async () => {
    const v = conforming('validate', await call('validate', { vm: VM }));
    expect(v['admitted']).toBe(false);
    expect(JSON.stringify(v['diagnostics'])).toContain('preference requires 2 vCPU');
    const ok = conforming('validate', await call('validate', { vm: VM.replace('u1.medium', 'u1.2xmedium') }));
    expect(ok['admitted']).toBe(true);
  });

  it('expand: the VM with its instance type applied', async () => {
    const e = conforming('expand', await call('expand', { vm: VM.replace('u1.medium', 'u1.2xmedium') }));
    const vm = (e['vms'] as { spec: { template: { spec: { domain: { cpu: { sockets?: number; cores?: number; threads?: number } } } } } }[])[0]!;
    const cpu = vm.spec.template.spec.domain.cpu;
    expect((cpu.sockets ?? 1) * (cpu.cores ?? 1) * (cpu.threads ?? 1)).toBe(2);
  });

  it('fit: where the VM runs on the nodes the server was started with', async () => {
    const f = conforming('fit', await call('fit', { vm: VM.replace('u1.medium', 'u1.2xmedium') }));
    expect(JSON.stringify(f['report'])).toContain('"vms"');
  });

  it('resize: what switching the VM to another instance type does', async () => {
    const stored = VM.replace('u1.medium', 'u1.2xmedium').replace('runStrategy: Halted', 'runStrategy: Always');
    const r = conforming('resize', await call('resize', { vm: stored, to: 'u1.large' }));
    expect(JSON.stringify(r['plan'])).toContain('u1.large');
    const none = await call('resize', { vm: stored });
    expect(none.isError).toBe(true);
  });

  it('template_process: the VM a template makes, and an undeclared parameter refused', async () => {
    const t = conforming('template_process', await call('template_process', { template: TEMPLATE, params: { NAME: 'db' } }));
    expect((t['vm'] as { metadata: { name: string } }).metadata.name).toBe('db');
    const bad = await call('template_process', { template: TEMPLATE, params: { NAMES: 'db' } });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toContain('parameter NAMES not found in template');
  });

  it('reads no path a client sends: the tools take text', () => {
    for (const t of tools) expect(JSON.stringify(t.inputSchema)).not.toMatch(/"(file|path)"/);
    expect(readFileSync(path.join(dir, 'bundle.yaml'), 'utf8').length).toBeGreaterThan(0);
  });
});
