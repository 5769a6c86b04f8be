/**
 * `itgen validate FILE...`: hand-written manifests judged the way KubeVirt's admission webhooks
 * judge them, with the same rules and diagnostics the catalog checks use. Instancetype and
 * preference objects become resolved objects whose every spec field points at its manifest line,
 * so the KubeVirt API model and the KubeVirt rules (src/validate) run on them unchanged;
 * VirtualMachines get the VM webhook's matcher checks and admission (src/expand).
 */
import { isPlainObject, type JsonObject } from '../json';
import { appendDiagnostics, diag, didYouMean, type Diagnostic, type SourceRange } from '../diagnostics';
import { type ExpandOptions, type ObjectStore } from '../expand';
import { manifestObjects, type FoundObject } from '../expand/documents';
import { judgeDocuments } from '../expand/judging';
import { KUBEVIRT_DEFAULTS, type ClusterDefaults } from '../kubevirt/config';
import { locate, type SourceDoc } from '../load/source';
import { apiVersionProblem } from '../kubevirt/placement';
import { parseQuantity } from '../quantity';
import type { RenderedManifest } from '../render/manifests';
import { toLeaves } from '../resolve/leaves';
import { fastParse } from '../schema/fast';
import { MANIFEST_KINDS } from '../schema/kubevirt-api';
import { manifestIssues, strict } from '../schema/lazy';
import { apiServerErrors, crdFieldsAt, formatPath, prunedObject, type FieldPath } from '../kubevirt/crd';
import type { WrittenGenerator } from '../schema/generator';
import { fieldLocation, type Finding, type ObjectRuleContext, type RuleInstancetype, type RulePreference } from '../validate/context';
import { API_RULES } from '../validate/rules-api';
import { KUBEVIRT_RULES } from '../validate/rules-kubevirt';
import { runRules } from '../validate';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** `spec.memory.guest` in bytes, 0 when it is not a quantity (the schema reports that). */
function memoryOf(spec: JsonObject): number {
  const guest = isPlainObject(spec['memory']) ? (spec['memory'] as JsonObject)['guest'] : undefined;
  return typeof guest === 'string' || typeof guest === 'number' ? (parseQuantity(guest) ?? 0) : 0;
}

/** What the rules read of a manifest (house style 36): kind, name, spec and where each field was written. */
type ManifestObject = ObjectRuleContext['objects'][number];

function ruleObject(f: FoundObject): ManifestObject {
  const kind = str(f.value['kind']);
  const meta = (isPlainObject(f.value['metadata']) ? f.value['metadata'] : {}) as JsonObject;
  const name = str(meta['name']) || '(unnamed)';
  const spec = (isPlainObject(f.value['spec']) ? f.value['spec'] : {}) as JsonObject;
  const what = `${kind} \`${name}\``;
  const common = {
    name,
    spec,
    labels: (isPlainObject(meta['labels']) ? meta['labels'] : {}) as Record<string, string>,
    annotations: (isPlainObject(meta['annotations']) ? meta['annotations'] : {}) as Record<string, string>,
    origin: { src: f.src, path: [...f.path, 'metadata', 'name'], what },
    leaves: toLeaves(spec, f.src, [...f.path, 'spec'], what),
  };
  const source: RuleInstancetype | RulePreference = kind.endsWith('Instancetype')
    ? {
        ...common,
        kind: 'instancetype',
        cpu: typeof (spec['cpu'] as JsonObject | undefined)?.['guest'] === 'number' ? ((spec['cpu'] as JsonObject)['guest'] as number) : 0,
        memoryBytes: memoryOf(spec),
      }
    : { ...common, kind: 'preference' };
  return { manifest: f.value as unknown as RenderedManifest, source, scope: kind.includes('Cluster') ? 'cluster' : 'namespaced' };
}

/** What KubeVirt's object webhooks refuse (ValidateInstanceTypeSpec, ValidatePreferenceSpec): these stay errors. */
const WEBHOOK_CODES: ReadonlySet<string> = new Set(['IT4001', 'IT4002', 'IT4003']);

/**
 * A catalog rule's finding on a hand-written object, as KubeVirt would meet it: the object
 * webhook's own refusals stay errors; the rest become warnings saying that KubeVirt stores the
 * object and only a VM using it is refused (at VM admission or when it starts).
 */
function asKubevirtWould(d: Diagnostic): Diagnostic {
  if (d.severity !== 'error') return d;
  if (WEBHOOK_CODES.has(d.code) || (d as Finding).reason === 'webhook-coresthreads-ratio') return d;
  return { ...d, severity: 'warning', message: `${d.message} (KubeVirt stores the object; a VM using it is refused when it is admitted or started)` };
}

const isSpreadTopology = (v: unknown): boolean => v === 'spread' || v === 'preferSpread';

/**
 * The API server's and the object webhook's verdict on one object, in their words
 * (kubevirt/crd.ts): strict decoding refuses an unknown field (`kubectl apply`'s default field
 * validation) and nothing else is checked then; the CRD schema refuses a value of the wrong type,
 * a missing required field, a value out of its bounds; KubeVirt's webhook fails to decode an
 * integer out of its Go type's range, and refuses an unknown preferredCPUTopology and unsupported
 * spread options. A value outside a list that only itgen's model has (KubeVirt's CRD has no enums),
 * or anything else only itgen's model refuses, is a warning.
 */
function objectVerdict(r: ManifestObject): Diagnostic[] {
  const kind = r.manifest.kind;
  const place = (path: FieldPath): SourceRange => (path[0] === 'spec' ? fieldLocation(r.source, path.slice(1).map(String)) : fieldLocation(r.source, []));
  const server = apiServerErrors(kind, r.manifest);
  if (server.length > 0) {
    return server.map((e) => {
      if (e.stage === 'strict') {
        const parent = e.path.slice(0, -1);
        const known = crdFieldsAt(kind, parent);
        const meant = known ? didYouMean(String(e.path[e.path.length - 1]), known) : undefined;
        return diag('IT3001', `strict decoding error: ${e.message}`, place(e.path), {
          hint: `${meant ? `${meant} ` : ''}the API server decodes strictly (kubectl apply's default) and refuses fields KubeVirt's types do not have`,
        });
      }
      return diag('IT3001', e.message, place(e.path.length > 0 ? e.path : ['spec']), {
        hint:
          e.stage === 'decode'
            ? "KubeVirt's webhook decodes the object into its Go types and refuses it"
            : e.stage === 'metadata'
              ? 'the API server decodes metadata into ObjectMeta first and refuses the request'
              : "the API server checks KubeVirt's CRD schema and refuses the object",
      });
    });
  }
  // What the webhook and itgen's model see: the object as stored, without the nulls the API server pruned.
  const stored = prunedObject(kind, r.manifest) as RenderedManifest;
  const issues = manifestIssues(kind, stored);
  if (issues.length === 0) return [];
  const out: Diagnostic[] = [];
  const spec = (isPlainObject(stored.spec as never) ? stored.spec : {}) as JsonObject;
  const spread = isSpreadTopology(((spec['cpu'] ?? {}) as JsonObject)['preferredCPUTopology']);
  for (const issue of issues) {
    const path = issue.path.map(String);
    const inSpec = path[0] === 'spec';
    const at = inSpec ? path.slice(1) : [];
    const found = path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), stored);
    const dotted = formatPath(issue.path.map((p) => (typeof p === 'number' ? p : String(p))));
    if (issue.code === 'invalid_value' && dotted === 'spec.cpu.preferredCPUTopology') {
      out.push(
        diag('IT4003', `unknown preferredCPUTopology ${String(found)}`, place(issue.path as FieldPath), {
          hint: 'one of: sockets, cores, threads, spread, any',
        }),
      );
      continue;
    }
    if (issue.code === 'invalid_value' && dotted === 'spec.cpu.spreadOptions.across' && spread) {
      out.push(
        diag('IT4004', `across ${String(found)} is not supported`, place(issue.path as FieldPath), {
          hint: 'one of: SocketsCores, CoresThreads, SocketsCoresThreads',
        }),
      );
      continue;
    }
    // The API server and the webhook's decoding admitted the object: whatever else itgen's model
    // refuses, KubeVirt stores.
    out.push(
      diag(
        'IT3001',
        `\`${dotted}\`: ${issue.message} (KubeVirt stores the object; the value only matters to a VM using it)`,
        inSpec ? fieldLocation(r.source, at) : fieldLocation(r.source, []),
        {
          severity: 'warning',
        },
      ),
    );
  }
  return out;
}

/**
 * Diagnostics for every instancetype, preference and VirtualMachine of `docs`; VMs resolve their
 * references against the objects of `docs` and `store` (the project's, and --with files).
 */
export function validateManifests(
  docs: readonly SourceDoc[],
  store: ObjectStore,
  options: Pick<ExpandOptions, 'namespace' | 'mutate'> & {
    /** The configurations VMs are judged under (Project.configs); KubeVirt's defaults of the newest release without. */
    readonly configs?: readonly ClusterDefaults[];
    /** No KubeVirt CR was given: the configurations are the releases' defaults. */
    readonly defaultsOnly?: boolean;
  } = {},
): Diagnostic[] {
  const found = manifestObjects(docs);
  const kinds = MANIFEST_KINDS as readonly string[];
  const specObjects = found.filter((f) => kinds.includes(str(f.value['kind'])));
  const rendered = specObjects.map(ruleObject);
  // A generator with every default, as the rules read one.
  const bare = { catalog: '.', output: '.' };
  const generator = (fastParse('generator', bare)?.data ?? strict().generatorSchema.parse(bare)) as WrittenGenerator;
  // KubeVirt's verdict on an object is the API server's (strict decoding, the CRD schema) and then
  // the object webhook's: those are errors, in their words (objectVerdict). Every other itgen rule
  // runs only on objects the schema admitted, and is a warning that says KubeVirt stores the object
  // and when it refuses what uses it; --strict makes them errors. Catalogs keep them as errors.
  const contextOf = (objects: readonly ManifestObject[]): ObjectRuleContext => ({
    catalog: {
      defaultArchitecture: 'amd64',
      instancetypes: objects.flatMap((r) => (r.source.kind === 'instancetype' ? [r.source] : [])),
      preferences: objects.flatMap((r) => (r.source.kind === 'preference' ? [r.source] : [])),
    },
    objects,
    generator,
  });
  const out: Diagnostic[] = [];
  const admitted: ManifestObject[] = [];
  for (const [i, r] of rendered.entries()) {
    // The API server maps kind and apiVersion to a resource first: a version KubeVirt does not serve
    // never reaches its schema or webhooks (kubectl: "no matches for kind ... in version ...").
    const f = specObjects[i]!;
    const version = apiVersionProblem(r.manifest.kind, f.value['apiVersion']);
    if (version) {
      out.push(
        diag(
          'IT8006',
          `${r.manifest.kind} \`${r.manifest.metadata.name}\`: ${version.message}`,
          locate(f.src, [...f.path, f.value['apiVersion'] === undefined ? 'kind' : 'apiVersion']),
          {
            ...(version.severity === 'warning' ? { severity: 'warning' as const } : {}),
            hint: `KubeVirt v1.9 serves ${r.manifest.kind} as apiVersion ${version.served} (v1alpha1 and v1alpha2 left in KubeVirt v1.7); the API server refuses any other`,
          },
        ),
      );
      if (version.severity === 'error') continue;
    }
    const verdict = objectVerdict(r);
    appendDiagnostics(out, verdict);
    if (!verdict.some((d) => d.severity === 'error')) admitted.push(r);
  }
  const metadata = API_RULES.filter((rule) => rule.name !== 'manifest-schema');
  appendDiagnostics(out, runRules(contextOf(admitted), metadata));
  appendDiagnostics(out, runRules(contextOf(admitted), KUBEVIRT_RULES).map(asKubevirtWould));
  // VMs take the path `itgen expand` takes: the mutating webhook, then admission, then expand-spec.
  const vms = found.filter((f) => f.value['kind'] === 'VirtualMachine');
  // The cluster's configuration (and release) is also what expansion and admission default with, as `expand` has it.
  if (vms.length > 0)
    appendDiagnostics(
      out,
      judgeDocuments(
        docs,
        store,
        {
          admission: true,
          // A stored VM's ControllerRevision not among the files is the cluster's: judged as
          // `--vms` judges it, with the object its matcher names, and said (IT8015).
          revisionsInCluster: 'said',
          ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
          ...(options.mutate ? { mutate: options.mutate } : {}),
        },
        { configs: options.configs ?? [KUBEVIRT_DEFAULTS], defaultsOnly: options.defaultsOnly ?? true },
      ),
    );
  if (specObjects.length === 0 && !found.some((f) => f.value['kind'] === 'VirtualMachine')) {
    out.push(
      diag('IT8004', 'no instance type, preference or VirtualMachine found in the files', docs[0] ? { file: docs[0].file, line: 1, col: 1 } : undefined),
    );
  }
  return out;
}
