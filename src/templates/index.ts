/**
 * VirtualMachineTemplates shipped with a catalog (the generator's `templates`): one per preference
 * named, a VM booting from a DataSource clone, with the preference fixed and the instance type a
 * parameter. Its default is chosen by the one judge: every instance type of the catalog (of the
 * families named) is tried with the template's VM, and the least specialised one KubeVirt admits and
 * starts with the preference is the default (src/expand/templates.ts's sweep). A preference no
 * instance type of the catalog starts with gets no template, and is said (IT5022).
 */
import { diag, type Diagnostic } from '../diagnostics';
import type { JsonObject } from '../json';
import { parseSource, locate, type SourceDoc } from '../load/source';
import type { RenderedObject } from '../render/manifests';
import { keys, matcher } from '../resolve/select';
import type { WrittenGenerator, WrittenTemplates } from '../schema/generator';
import { targetRange } from '../schema/kubevirt-api';
import { mappingToYaml, serializeStream } from '../emit/serialize';
import { objectStore } from '../expand';
import { sweepTemplate, templatesAsVms } from '../expand/templates';
import { KUBEVIRT_DEFAULTS, type ClusterDefaults } from '../kubevirt/config';
import { TEMPLATE_GROUP } from '../kubevirt/template';
import { hasSince, releasesBetween } from '../kubevirt/releases';
import type { OutputFile } from '../emit/layout';

export const TEMPLATES_DIR = 'templates';
const TEMPLATES_FILE = 'virtualmachinetemplates.yaml';

export interface CatalogTemplates {
  readonly objects: readonly JsonObject[];
  readonly diagnostics: readonly Diagnostic[];
}

/** The template of one preference, with `instancetype` as INSTANCETYPE's default. */
function templateOf(
  preference: RenderedObject,
  instancetype: { kind: string; name: string },
  opts: WrittenTemplates,
  namespace: string,
  apiVersion: string,
): JsonObject {
  const name = preference.manifest.metadata.name;
  const display = preference.manifest.metadata.annotations?.['openshift.io/display-name'] ?? name;
  const short =
    name
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'vm';
  return {
    apiVersion,
    kind: 'VirtualMachineTemplate',
    metadata: {
      name,
      namespace,
      annotations: { description: `A ${display} VM: its size is the INSTANCETYPE parameter, its guest settings the ${name} preference` },
    },
    spec: {
      message: `VirtualMachine \${NAME} created with instance type \${INSTANCETYPE}; start it with: virtctl start \${NAME}`,
      parameters: [
        { name: 'NAME', description: 'The VirtualMachine name', generate: 'expression', from: `${short}-[a-z0-9]{5}` },
        {
          name: 'INSTANCETYPE',
          description: `The instance type (${instancetype.kind}); the default is the least specialised one the ${name} preference admits`,
          value: instancetype.name,
        },
        { name: 'DATA_SOURCE_NAME', description: 'The DataSource of the boot image', value: preference.manifest.metadata.name },
        { name: 'DATA_SOURCE_NAMESPACE', description: 'The namespace of the DataSource', value: opts.dataSourceNamespace },
      ],
      virtualMachine: {
        apiVersion: 'kubevirt.io/v1',
        kind: 'VirtualMachine',
        metadata: { name: '${NAME}' },
        spec: {
          runStrategy: 'Halted',
          instancetype: { kind: instancetype.kind, name: '${INSTANCETYPE}' },
          preference: { kind: preference.manifest.kind, name },
          dataVolumeTemplates: [
            {
              metadata: { name: '${NAME}' },
              spec: {
                sourceRef: { kind: 'DataSource', name: '${DATA_SOURCE_NAME}', namespace: '${DATA_SOURCE_NAMESPACE}' },
                storage: { resources: { requests: { storage: opts.storage } } },
              },
            },
          ],
          template: { spec: { domain: { devices: {} }, volumes: [{ name: 'rootdisk', dataVolume: { name: '${NAME}' } }] } },
        },
      },
    },
  };
}

/** The template as a document of its own (what the engine and the judge read). */
function asDocument(t: JsonObject): SourceDoc {
  return parseSource('template.yaml', Buffer.from(mappingToYaml(t))).docs[0]!;
}

/**
 * The catalog's templates: each named preference with the least specialised instance type KubeVirt
 * admits and starts with it, under every configuration judged (`configs`, the releases targeted).
 */
export function catalogTemplates(
  objects: readonly RenderedObject[],
  opts: WrittenTemplates,
  context: { readonly namespace?: string | undefined; readonly configs: readonly ClusterDefaults[]; readonly generatorSrc: SourceDoc },
): CatalogTemplates {
  const namespace = opts.namespace ?? context.namespace ?? 'default';
  // v1beta1 from KubeVirt v1.9 on; a catalog that also targets v1.8 ships v1alpha1, which both serve.
  const apiVersion = `${TEMPLATE_GROUP}/${context.configs.every((c) => hasSince('v1.9.0', c.release)) ? 'v1beta1' : 'v1alpha1'}`;
  const wanted = opts.preferences.map(matcher);
  const families = opts.families?.map(matcher);
  const preferences = objects.filter(
    (o) => o.source.kind === 'preference' && (o.scope === 'cluster' || !objects.some((x) => x.scope === 'cluster' && x.source === o.source)),
  );
  const chosen = preferences.filter(
    (p) => (keys(p.source, 'preferences') ?? []).some((k) => wanted.some((m) => m(k))) || wanted.some((m) => m(p.manifest.metadata.name)),
  );
  const diagnostics: Diagnostic[] = [];
  opts.preferences.forEach((pattern, i) => {
    if (!chosen.some((p) => [...(keys(p.source, 'preferences') ?? []), p.manifest.metadata.name].some((k) => matcher(pattern)(k))))
      diagnostics.push(
        diag('IT5022', `templates: no preference of the catalog is \`${pattern}\``, locate(context.generatorSrc, ['templates', 'preferences', i]), {
          hint: 'name a preference the catalog emits (as declared, `fedora`, or as emitted, `fedora.arm64`); `*` is a wildcard',
        }),
      );
  });
  const store = objectStore(objects.map((o) => o.manifest as unknown as JsonObject));
  const judging = { configs: context.configs, defaultsOnly: true };
  const out: JsonObject[] = [];
  for (const p of chosen) {
    // Instance types of the preference's scope: cluster-wide ones for a cluster-wide preference.
    const its = objects.filter(
      (o) =>
        o.source.kind === 'instancetype' &&
        o.scope === p.scope &&
        (families === undefined || (keys(o.source, 'families') ?? []).some((k) => families.some((m) => m(k)))),
    );
    if (its.length === 0) continue;
    const first = its[0]!;
    const draft = templateOf(p, { kind: first.manifest.kind, name: first.manifest.metadata.name }, opts, namespace, apiVersion);
    const doc = asDocument(draft);
    const processed = templatesAsVms([doc]).templates[0]!.processed;
    const names = new Set(its.map((o) => o.manifest.metadata.name));
    const [sweep] = sweepTemplate(doc, processed, store, judging, { preferDefaultFamily: false, among: (o) => names.has(o.name) });
    const pick = sweep?.best;
    if (pick === undefined) {
      diagnostics.push(
        diag(
          'IT5023',
          `templates: KubeVirt starts a VM of the preference \`${p.manifest.metadata.name}\` with no instance type of the catalog${families ? ' of the families named' : ''}: no template`,
          locate(context.generatorSrc, ['templates']),
          {
            severity: 'warning',
            hint: `${sweep?.rows[0]?.refusal ?? 'no instance type'}; \`itgen matrix\` shows which pairs KubeVirt admits`,
          },
        ),
      );
      continue;
    }
    out.push(templateOf(p, { kind: first.manifest.kind, name: pick }, opts, namespace, apiVersion));
  }
  return { objects: out, diagnostics };
}

/** templates/: a kustomize base of its own (the template CRD is virt-template's, deployed by KubeVirt from v1.9 by default). */
export function templatesBase(templates: readonly JsonObject[]): OutputFile[] {
  return [
    {
      path: `${TEMPLATES_DIR}/kustomization.yaml`,
      content: mappingToYaml({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: [TEMPLATES_FILE] }),
    },
    { path: `${TEMPLATES_DIR}/${TEMPLATES_FILE}`, content: serializeStream(templates.map((t) => mappingToYaml(t))) },
  ];
}

/** A generator's `templates:`, judged at every release its `targetKubevirt` covers (under its clusters' configuration, when it names one). */
export function generatorTemplates(
  objects: readonly RenderedObject[],
  config: Pick<WrittenGenerator, 'templates' | 'targetKubevirt' | 'namespace'>,
  kubevirt: ClusterDefaults | undefined,
  generatorSrc: SourceDoc,
): CatalogTemplates | undefined {
  if (!config.templates) return undefined;
  const range = targetRange(config.targetKubevirt);
  const base = kubevirt ?? KUBEVIRT_DEFAULTS;
  const configs = releasesBetween(range.min, range.max).map((release) => ({ ...base, release }));
  return catalogTemplates(objects, config.templates, { namespace: config.namespace, configs, generatorSrc });
}
