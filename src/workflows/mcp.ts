/**
 * `itgen mcp`: a Model Context Protocol server over stdio (the official TypeScript SDK), read-only,
 * for agents that create VMs for people. Each tool is a workflow of itgen with an input and an output
 * schema; its answer is `structuredContent` that conforms (the SDK checks it) plus a short text, and a
 * refusal is an `isError` result with the actionable words. The catalogs are those of the project and
 * the `--with` files given when the server starts; a client sends text (a VM, a template), never paths.
 */
import type { z as zod } from 'zod';
import type { Diagnostic } from '../diagnostics';
import type { Json, JsonObject } from '../json';
import type { Project } from '../project';
import { VERSION } from '../version';
import { kubeObject, type KubeObjectJson } from '../json';
import { choose, chooseJson, type ChooseAsk, type ChooseJson } from './choose';
import { expandVms } from './expand';
import { processTemplate, processedTemplateJson, type ProcessedTemplateJson } from './template';
import { validate } from './validate';
import { fit, type FitJson } from './fit';
import { resize, resizeChange, type ResizeChangeJson } from './resize';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A project whose standard input is `stdin` (what a tool's text becomes: the file `-`). */
export type ProjectFor = (stdin: string) => Project;

/** What the server was started with besides the project: the cluster's nodes and pods (`--nodes`, `--pods`). */
export interface McpCluster {
  readonly nodes?: string;
  readonly pods?: string;
}

type Zod = typeof zod;

/** A diagnostic as the tools answer it: the line and column in the text the client sent. */
export interface McpDiagnostic {
  readonly code: string;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly line?: number;
  readonly col?: number;
  readonly hint?: string;
}

/** The select tool: the pair KubeVirt admits, why, and a VM that names it; or the refusal and the nearest pairs. */
export type McpSelectOutput = ChooseJson;

/** The validate tool: whether KubeVirt stores and starts the VM at the releases judged, and its words. */
export interface McpValidateOutput {
  /** No error: KubeVirt stores and starts it. */
  readonly admitted: boolean;
  readonly diagnostics: readonly McpDiagnostic[];
}

/** The expand tool: each VirtualMachine as the expand-spec subresource returns it. */
export interface McpExpandOutput {
  readonly vms: readonly KubeObjectJson[];
  readonly diagnostics: readonly McpDiagnostic[];
}

/** The fit tool: the placement of the VM's launcher pod on the nodes, as `itgen fit -o json` says it. */
export interface McpFitOutput {
  readonly report?: FitJson;
  readonly diagnostics: readonly McpDiagnostic[];
}

/** The resize tool: what the change does (live, pending, restart, start, rejected or failed) and why. */
export interface McpResizeOutput {
  readonly plan?: ResizeChangeJson;
  readonly diagnostics: readonly McpDiagnostic[];
}

/** The template_process tool: the VirtualMachine made, the message, the generated values. */
export interface McpTemplateProcessOutput extends Omit<ProcessedTemplateJson, 'vm'> {
  readonly vm?: KubeObjectJson;
  readonly diagnostics: readonly McpDiagnostic[];
}

/** The bundle carries the tools' generated schemas (tools/bundle.mjs): the installed package needs no file beside it. */
declare const ITGEN_OUTPUT_SCHEMAS: string | undefined;

let bundled: Record<string, Record<string, unknown>> | undefined;

/** A tool's output schema, generated from its type (schema/output/mcp-NAME.schema.json). */
function outputSchema(name: string): Record<string, unknown> {
  if (typeof ITGEN_OUTPUT_SCHEMAS === 'string') return (bundled ??= JSON.parse(ITGEN_OUTPUT_SCHEMAS) as Record<string, Record<string, unknown>>)[name]!;
  // Unbundled (the compiled library, the tests): the package's own file, two levels above this module.
  return JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'schema', 'output', `${name}.schema.json`), 'utf8')) as Record<string, unknown>;
}

const MAX_TEXT = 1024 * 1024;

function diagnosticsOf(ds: readonly Diagnostic[]): McpDiagnostic[] {
  return ds.map((d) => ({
    code: d.code,
    severity: d.severity,
    message: d.message,
    ...(d.location ? { line: d.location.line, col: d.location.col } : {}),
    ...(d.hint !== undefined ? { hint: d.hint } : {}),
  }));
}

const errorsOf = (ds: readonly Diagnostic[]): string =>
  ds
    .filter((d) => d.severity === 'error')
    .map((d) => `${d.message}${d.hint ? ` (${d.hint})` : ''}`)
    .join('\n');

type ToolResult = { content: { type: 'text'; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

const result = (text: string, structured: object, isError = false): ToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: { ...structured },
  ...(isError ? { isError: true } : {}),
});

const refused = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** Each tool's answer, without the transport (tests call these too). */
export const MCP_TOOLS = {
  select(projectFor: ProjectFor, ask: ChooseAsk, cluster: McpCluster = {}): ToolResult {
    const r = choose(projectFor(''), {
      ...ask,
      ...(cluster.nodes !== undefined ? { nodes: cluster.nodes } : {}),
      ...(cluster.pods !== undefined ? { pods: cluster.pods } : {}),
    });
    if (!r.answer) return refused(errorsOf(r.diagnostics) || 'no answer');
    const out: McpSelectOutput = chooseJson(r);
    return result(`${r.answer.instancetype.name} with ${r.answer.preference}: ${r.answer.why.join('; ')}`, out);
  },
  validate(projectFor: ProjectFor, vm: string): ToolResult {
    if (vm.length > MAX_TEXT) return refused(`the VM text is over ${MAX_TEXT} bytes`);
    const r = validate(projectFor(vm), { files: ['-'] });
    const admitted = !r.diagnostics.some((d) => d.severity === 'error');
    const out: McpValidateOutput = { admitted, diagnostics: diagnosticsOf(r.diagnostics) };
    return result(admitted ? 'KubeVirt stores and starts it' : errorsOf(r.diagnostics), out);
  },
  expand(projectFor: ProjectFor, vm: string): ToolResult {
    if (vm.length > MAX_TEXT) return refused(`the VM text is over ${MAX_TEXT} bytes`);
    const r = expandVms(projectFor(vm), { files: ['-'] });
    const out: McpExpandOutput = { vms: r.outcomes.flatMap((o) => (o.vm ? [kubeObject(o.vm)] : [])), diagnostics: diagnosticsOf(r.diagnostics) };
    const failed = r.diagnostics.some((d) => d.severity === 'error');
    return result(failed ? errorsOf(r.diagnostics) : `${out.vms.length} VM${out.vms.length === 1 ? '' : 's'} expanded`, out, failed);
  },
  fit(projectFor: ProjectFor, cluster: McpCluster, vm: string): ToolResult {
    if (cluster.nodes === undefined)
      return refused("this server was started without --nodes: start it with the cluster's nodes (kubectl get nodes -o yaml) to place VMs");
    if (vm.length > MAX_TEXT) return refused(`the VM text is over ${MAX_TEXT} bytes`);
    const r = fit(projectFor(vm), { vms: ['-'], nodes: cluster.nodes, ...(cluster.pods !== undefined ? { pods: cluster.pods } : {}) });
    const failed = r.diagnostics.some((d) => d.severity === 'error') || !r.fit;
    const out: McpFitOutput = { ...(r.fit ? { report: r.fit } : {}), diagnostics: diagnosticsOf(r.diagnostics) };
    return result(failed ? errorsOf(r.diagnostics) || 'no placement' : 'placed', out, failed);
  },
  resize(projectFor: ProjectFor, vm: string, to: { instancetype?: string; preference?: string }): ToolResult {
    if (vm.length > MAX_TEXT) return refused(`the VM text is over ${MAX_TEXT} bytes`);
    if (to.instancetype === undefined && to.preference === undefined) return refused('name the instance type (to) or the preference to switch to');
    const r = resize(projectFor(vm), {
      vm: '-',
      ...(to.instancetype !== undefined ? { to: to.instancetype } : {}),
      ...(to.preference !== undefined ? { preference: to.preference } : {}),
    });
    const failed = r.diagnostics.some((d) => d.severity === 'error') || !r.plan;
    const out: McpResizeOutput = { ...(r.plan ? { plan: resizeChange(r) } : {}), diagnostics: diagnosticsOf(r.diagnostics) };
    return result(failed ? errorsOf(r.diagnostics) || 'no plan' : (r.plan?.outcome ?? 'planned'), out, failed);
  },
  template_process(projectFor: ProjectFor, template: string, params: Readonly<Record<string, string>>): ToolResult {
    if (template.length > MAX_TEXT) return refused(`the template text is over ${MAX_TEXT} bytes`);
    const r = processTemplate(projectFor(template), { file: '-', values: params });
    const made = processedTemplateJson(r);
    const out: McpTemplateProcessOutput = { ...(made ?? { message: '', generated: {} }), diagnostics: diagnosticsOf(r.diagnostics) };
    return made ? result(made.message || 'processed', out) : result(errorsOf(r.diagnostics), out, true);
  },
};

const askShapeOf = (z: Zod) => ({
  os: z.string().max(100).optional().describe('the guest OS as people say it: windows 11, rhel, fedora'),
  preference: z.string().max(253).optional().describe('a preference name instead of an OS word'),
  intent: z.string().max(100).optional().describe('general, compute, memory, network, realtime, overcommitted, gpu, or a class of the catalog'),
  size: z.string().max(63).optional().describe('a size name: small, large, 2xlarge'),
  cpu: z.string().max(40).optional().describe('vCPUs: 4, 4..16, 4.., ..16'),
  memory: z.string().max(40).optional().describe('guest memory: 8Gi, 8Gi..32Gi'),
  arch: z.string().max(20).optional().describe('amd64, arm64 or s390x'),
  gpu: z.string().max(253).optional(),
  hugepages: z.string().max(20).optional(),
  dedicated: z.boolean().optional(),
  families: z.array(z.string().max(63)).max(20).optional().describe('only these families (u1, or u); naming families replaces the default general purpose'),
  classes: z.array(z.string().max(63)).max(20).optional().describe('only these classes (general.purpose, compute.exclusive)'),
  text: z.string().max(200).optional().describe('words the name, display name, description or class must hold'),
  deprecated: z.boolean().optional().describe('let deprecated instance types be chosen'),
  scope: z.enum(['cluster', 'namespaced']).optional().describe('name the cluster-wide kinds (default) or the namespaced ones'),
});

/** Serves the tools over stdio until the client closes the stream. */
// Over 80 lines: one registration per tool, each its schemas and the call to its workflow.
export async function serveMcp(projectFor: ProjectFor, cluster: McpCluster = {}): Promise<void> {
  const { z } = await import('zod');
  // The output schemas generated from the types above (schema/output/mcp-*.schema.json), as zod for the SDK.
  // Without `$id`: a tool's schema is published inline in the tool list, not as the file at that address.
  const output = (name: string) => {
    const { $id: _id, ...schema } = outputSchema(`mcp-${name}`);
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  };
  const askShape = askShapeOf(z);
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const server = new McpServer({ name: 'itgen', version: VERSION });
  const noUndefined = <T extends Record<string, unknown>>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  server.registerTool(
    'select',
    {
      title: 'Choose an instance type and preference',
      description:
        "One instance type and preference KubeVirt admits for the ask (least specialised, then smallest), why, the smaller ones passed over in KubeVirt's words, and a VM to apply; an impossible ask is refused with the nearest admitted pairs.",
      inputSchema: askShape,
      outputSchema: output('select'),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => MCP_TOOLS.select(projectFor, noUndefined(args) as ChooseAsk, cluster),
  );
  server.registerTool(
    'validate',
    {
      title: 'Judge a VirtualMachine',
      description:
        "Whether KubeVirt stores and starts the VirtualMachine (YAML or JSON text), in KubeVirt's words at its lines, against the catalogs the server was started with.",
      inputSchema: { vm: z.string().max(MAX_TEXT).describe('the VirtualMachine manifest (YAML or JSON)') },
      outputSchema: output('validate'),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ vm }) => MCP_TOOLS.validate(projectFor, vm),
  );
  server.registerTool(
    'expand',
    {
      title: 'Expand a VirtualMachine',
      description: 'The VirtualMachine with its instance type and preference applied, as the expand-spec subresource returns it.',
      inputSchema: { vm: z.string().max(MAX_TEXT).describe('the VirtualMachine manifest (YAML or JSON)') },
      outputSchema: output('expand'),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ vm }) => MCP_TOOLS.expand(projectFor, vm),
  );
  server.registerTool(
    'fit',
    {
      title: 'Place a VirtualMachine',
      description:
        "Where the VM's virt-launcher pod fits on the cluster's nodes (given when the server started), kube-scheduler's filters and their reasons per node.",
      inputSchema: { vm: z.string().max(MAX_TEXT).describe('the VirtualMachine manifest (YAML or JSON)') },
      outputSchema: output('fit'),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ vm }) => MCP_TOOLS.fit(projectFor, cluster, vm),
  );
  server.registerTool(
    'resize',
    {
      title: "Change a VM's instance type or preference",
      description:
        "What switching the VM to another instance type or preference does (live, pending, restart, start, rejected or failed) and why, in KubeVirt's words.",
      inputSchema: {
        vm: z.string().max(MAX_TEXT).describe('the VirtualMachine manifest as the cluster stores it (YAML or JSON)'),
        to: z.string().max(253).optional().describe('the instance type to switch to'),
        preference: z.string().max(253).optional().describe('the preference to switch to'),
      },
      outputSchema: output('resize'),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ vm, to, preference }) =>
      MCP_TOOLS.resize(projectFor, vm, { ...(to !== undefined ? { instancetype: to } : {}), ...(preference !== undefined ? { preference } : {}) }),
  );
  server.registerTool(
    'template_process',
    {
      title: 'Process a VirtualMachineTemplate',
      description: 'The VirtualMachine a VirtualMachineTemplate makes with the parameters given, as virtctl template process --local does.',
      inputSchema: {
        template: z.string().max(MAX_TEXT).describe('the VirtualMachineTemplate (YAML or JSON)'),
        params: z.record(z.string(), z.string()).optional().describe('parameter values'),
      },
      outputSchema: output('template-process'),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ template, params }) => MCP_TOOLS.template_process(projectFor, template, params ?? {}),
  );
  const transport = new StdioServerTransport();
  await server.connect(transport);
  await new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.on('end', () => resolve());
  });
}

export type { Json, JsonObject };

/** Starts the server; a failure of the transport is said on standard error and exits 2. */
export function startMcp(projectFor: ProjectFor, cluster: McpCluster, err: (s: string) => void): void {
  serveMcp(projectFor, cluster).catch((e: unknown) => {
    err(`itgen mcp: ${String((e as Error | undefined)?.message ?? e).slice(0, 300)}`);
    process.exitCode = 2;
  });
}
