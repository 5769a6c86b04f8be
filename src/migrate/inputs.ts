/**
 * What `migrate presets` reads: VirtualMachineInstancePresets (checked as the preset admitter and
 * the label-selector parser would), VirtualMachines and VirtualMachineInstances, each with the
 * document and path it stands at.
 */
import { obj, type Json } from '../json';
import { z } from 'zod';
import { diag, type Diagnostic } from '../diagnostics';
import { domainNode, fieldPath, unknownFieldsAt, unknownVmFields, type UnknownField } from '../expand/unknown-fields';
import { manifestObjects, type FoundObject } from '../expand/documents';

import { locate, type SourceDoc } from '../load/source';
import { isQuantity } from '../quantity';
import { checkAgainst } from '../schema/check';
import { DNS_SUBDOMAIN, preferenceClockSchema, preferenceCpuSchema, preferenceFeaturesSchema, preferenceFirmwareSchema } from '../schema/manifest';
import { withoutNulls } from './go-values';
import { DEFAULT_NAMESPACE, type Preset } from './presets';

const PRESET_API_VERSIONS = ['kubevirt.io/v1', 'kubevirt.io/v1alpha3'];

// k8s.io/apimachinery validation: what LabelSelectorAsSelector accepts; a bogus selector makes
// KubeVirt refuse every VMI of the preset's namespace.
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

function labelKeyProblem(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix)))
    return `label key ${JSON.stringify(key)}: the prefix must be a DNS subdomain (lowercase letters, digits, '-' and '.')`;
  if (name.length > 63 || !LABEL_NAME.test(name))
    return `label key ${JSON.stringify(key)}: a name part must be 63 characters or fewer, alphanumeric, '-', '_' or '.', starting and ending with an alphanumeric character`;
  return undefined;
}

const labelKey = z.string().superRefine((k, ctx) => {
  const problem = labelKeyProblem(k);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
const labelValue = z
  .string()
  .max(63, 'a label value must be 63 characters or fewer')
  .regex(
    LABEL_VALUE,
    "a valid label value must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
  );
const labelMap = z.record(labelKey, labelValue);

const requirementSchema = z
  .strictObject({
    key: labelKey,
    operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist']),
    values: z.array(labelValue).optional(),
  })
  .superRefine((r, ctx) => {
    const n = r.values?.length ?? 0;
    // metav1.LabelSelectorAsSelector refuses these; KubeVirt then refuses every VMI of the namespace.
    if ((r.operator === 'In' || r.operator === 'NotIn') && n === 0)
      ctx.addIssue({ code: 'custom', path: ['values'], message: `for '${r.operator.toLowerCase()}' operators, values set can't be empty` });
    if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && n > 0)
      ctx.addIssue({ code: 'custom', path: ['values'], message: `values set must be empty for exists and does not exist` });
  });

const count = z.number().int().min(0).max(4294967295);
const section = z.record(z.string(), z.unknown());
const quantity = z.union([z.string(), z.number()]).refine((v) => isQuantity(String(v).trim()), { message: 'not a Kubernetes quantity (like `4Gi` or `500m`)' });

const F = preferenceFeaturesSchema.shape;
const C = preferenceClockSchema.shape;
const clockOffset = C.preferredClockOffset.unwrap().shape;

/**
 * The parts of a domain presets merge and the migration reads, typed as KubeVirt's API decodes
 * them (the same shapes the preference model gives the fields they become), so that a value of
 * the wrong type is reported at its line instead of turning into a catalog that does not compile.
 * Other fields are the API server's business.
 */
const domainSchema = z.looseObject({
  cpu: z
    .looseObject({
      sockets: count.optional(),
      cores: count.optional(),
      threads: count.optional(),
      maxSockets: count.optional(),
      model: z.string().optional(),
      dedicatedCpuPlacement: z.boolean().optional(),
      isolateEmulatorThread: z.boolean().optional(),
      features: preferenceCpuSchema.shape.preferredCPUFeatures,
      numa: section.optional(),
      realtime: section.optional(),
    })
    .optional(),
  memory: z
    .looseObject({ guest: quantity.optional(), maxGuest: quantity.optional(), hugepages: z.looseObject({ pageSize: quantity.optional() }).optional() })
    .optional(),
  resources: z.looseObject({ requests: z.record(z.string(), quantity).optional(), limits: z.record(z.string(), quantity).optional() }).optional(),
  firmware: z
    .looseObject({
      bootloader: z
        .strictObject({ bios: z.strictObject({ useSerial: z.boolean().optional() }).optional(), efi: preferenceFirmwareSchema.shape.preferredEfi })
        .optional(),
      uuid: z.string().optional(),
      serial: z.string().optional(),
    })
    .optional(),
  clock: z.strictObject({ utc: clockOffset.utc, timezone: clockOffset.timezone, timer: C.preferredTimer }).optional(),
  features: z
    .looseObject({
      acpi: F.preferredAcpi,
      apic: F.preferredApic,
      hyperv: F.preferredHyperv,
      kvm: F.preferredKvm,
      pvspinlock: F.preferredPvspinlock,
      smm: F.preferredSmm,
    })
    .optional(),
  devices: z.looseObject({ watchdog: z.looseObject({ name: z.string() }).optional() }).optional(),
  ioThreadsPolicy: z.enum(['shared', 'auto', 'supplementalPool']).optional(),
});

/** What the API server accepts as names: they become object names, file names and catalog names here. */
const objectName = z.string().max(253).regex(DNS_SUBDOMAIN, 'a Kubernetes object name: lowercase letters, digits, `-` and `.` (a DNS subdomain)');
const namespaceName = z
  .string()
  .max(63)
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'a namespace: lowercase letters, digits and `-` (a DNS label)');
const objectMetadata = { name: objectName, namespace: namespaceName.optional() };

const vmSchema = z.looseObject({
  metadata: z.looseObject(objectMetadata),
  spec: z.looseObject({
    template: z.looseObject({
      metadata: z.looseObject({ labels: labelMap.optional(), annotations: z.record(z.string(), z.string()).optional() }).optional(),
      spec: z.looseObject({ domain: domainSchema.optional() }).optional(),
    }),
  }),
});

const presetSchema = z.object({
  apiVersion: z.string(),
  kind: z.literal('VirtualMachineInstancePreset'),
  metadata: z.object(objectMetadata),
  spec: z.object({
    selector: z.strictObject({ matchLabels: labelMap.optional(), matchExpressions: z.array(requirementSchema).optional() }),
    domain: domainSchema,
  }),
});

export interface PresetInput {
  readonly preset: Preset;
  readonly at: FoundObject;
}

export interface Inputs {
  readonly presets: readonly PresetInput[];
  readonly vms: readonly FoundObject[];
  readonly vmis: readonly FoundObject[];
  readonly diagnostics: readonly Diagnostic[];
}

export function namespaceOf(o: FoundObject): string {
  const ns = obj(o.value['metadata'])?.['namespace'];
  return typeof ns === 'string' && ns !== '' ? ns : DEFAULT_NAMESPACE;
}

export function nameOf(o: FoundObject): string {
  const name = obj(o.value['metadata'])?.['name'];
  return typeof name === 'string' && name !== '' ? name : '(unnamed)';
}

function unknownFieldDiag(kind: string, f: FoundObject, u: UnknownField): Diagnostic {
  if (u.invalid !== undefined) return diag('IT8202', `${kind} \`${nameOf(f)}\`: ${u.invalid}`, locate(f.src, [...f.path, ...u.path]));
  return diag('IT8202', `${kind} \`${nameOf(f)}\`: strict decoding error: unknown field "${fieldPath(u.path)}"`, locate(f.src, [...f.path, ...u.path]), {
    hint: `${u.meant !== undefined ? `did you mean \`${u.meant}\`? ` : ''}the API server refuses fields KubeVirt's types do not have`,
  });
}

/** IT8201 no preset in the input; IT8202 a preset or VM KubeVirt (or its selector parser) would refuse. */
export function readInputs(docs: readonly SourceDoc[]): Inputs {
  const found = manifestObjects(docs);
  const diagnostics: Diagnostic[] = [];
  const presets: PresetInput[] = [];
  for (const f of found.filter((o) => o.value['kind'] === 'VirtualMachineInstancePreset')) {
    const apiVersion = f.value['apiVersion'];
    if (typeof apiVersion === 'string' && !PRESET_API_VERSIONS.includes(apiVersion)) {
      diagnostics.push(
        diag(
          'IT8202',
          `VirtualMachineInstancePreset \`${nameOf(f)}\`: apiVersion \`${apiVersion}\` is not one KubeVirt serves presets at (${PRESET_API_VERSIONS.join(', ')})`,
          locate(f.src, [...f.path, 'apiVersion']),
        ),
      );
      continue;
    }
    const checked = checkAgainst(presetSchema, f.src, f.value, f.path);
    if (!checked.ok) {
      diagnostics.push(
        ...checked.diagnostics.map((d) => ({ ...d, code: 'IT8202' as const, message: `VirtualMachineInstancePreset \`${nameOf(f)}\`: ${d.message}` })),
      );
      continue;
    }
    // A field the domain type lacks (`dedicatedCPUPlacement` for `dedicatedCpuPlacement`) is refused
    // by the API server's strict decoding; carrying it into an instance type would pretend it worked.
    const node = domainNode();
    const unknown = node === undefined ? [] : unknownFieldsAt(obj(f.value['spec'])?.['domain'] as Json, node, ['spec', 'domain']);
    if (unknown.length > 0) {
      diagnostics.push(...unknown.map((u) => unknownFieldDiag('VirtualMachineInstancePreset', f, u)));
      continue;
    }
    const { metadata, spec } = checked.data;
    presets.push({
      at: f,
      preset: {
        name: metadata.name,
        namespace: metadata.namespace ?? DEFAULT_NAMESPACE,
        matchLabels: spec.selector.matchLabels ?? {},
        matchExpressions: (spec.selector.matchExpressions ?? []).map((r) => ({ key: r.key, operator: r.operator, values: r.values ?? [] })),
        domain: withoutNulls(obj(obj(f.value['spec'])?.['domain'])!),
      },
    });
  }
  const seen = new Map<string, PresetInput>();
  for (const p of presets) {
    const key = `${p.preset.namespace}/${p.preset.name}`;
    const first = seen.get(key);
    if (first)
      diagnostics.push(
        diag(
          'IT8202',
          `VirtualMachineInstancePreset \`${p.preset.name}\` is given twice in namespace \`${p.preset.namespace}\``,
          locate(p.at.src, [...p.at.path, 'metadata', 'name']),
          { related: [{ message: 'first given here', location: locate(first.at.src, [...first.at.path, 'metadata', 'name']) }] },
        ),
      );
    else seen.set(key, p);
  }
  const vms = found.filter((o) => o.value['kind'] === 'VirtualMachine');
  for (const f of vms) {
    const checked = checkAgainst(vmSchema, f.src, f.value, f.path);
    if (!checked.ok)
      diagnostics.push(...checked.diagnostics.map((d) => ({ ...d, code: 'IT8202' as const, message: `VirtualMachine \`${nameOf(f)}\`: ${d.message}` })));
    else diagnostics.push(...unknownVmFields(f.value).map((u) => unknownFieldDiag('VirtualMachine', f, u)));
  }
  if (presets.length === 0 && diagnostics.length === 0) {
    diagnostics.push(
      diag('IT8201', 'no VirtualMachineInstancePreset found in the input', docs[0] ? { file: docs[0].file, line: 1, col: 1 } : undefined, {
        hint: 'pass the presets (kubectl get vmipresets -A -o yaml > presets.yaml) with the VirtualMachines they select',
      }),
    );
  }
  return {
    presets: [...seen.values()],
    vms,
    vmis: found.filter((o) => o.value['kind'] === 'VirtualMachineInstance'),
    diagnostics,
  };
}
