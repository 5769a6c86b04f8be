/**
 * The VM webhook's own rules beside the template's (vms-admitter.go `ValidateVirtualMachineSpec`
 * after `ValidateVirtualMachineInstanceSpec`): the DataVolume templates (pkg/storage/admitters
 * `ValidateDataVolumeTemplate`), the run strategy, the live update limits; then the storage
 * admitter's `Admit` on CREATE: a DataVolume template's namespace. In KubeVirt's order and words.
 */
import { list, obj, str, type JsonObject } from '../json';
import { parseQuantity } from '../quantity';
import type { Cause } from './cause';
import { gateEnabled, type ClusterDefaults } from './config';
import { isSet } from './go';
import { memoryHotplugProblem } from './vmi';
import { metadataCauses, validateInstanceSpec } from './spec-validation';
import { graceAnnotationCauses } from './spec-grace';

const RUN_STRATEGIES = new Set(['Halted', 'Manual', 'Always', 'RerunOnFailure', 'Once']);
/** CDI's DataVolumeSource fields: exactly one is the source. */
const DATA_VOLUME_SOURCES = ['http', 's3', 'gcs', 'registry', 'pvc', 'upload', 'blank', 'imageio', 'vddk', 'snapshot'];

/** validateDataVolume, one template: the first problem only. */
function dataVolumeProblem(dv: JsonObject, at: string): Cause | undefined {
  const spec = obj(dv['spec']) ?? {};
  const cause = (type: Cause['type'], field: string, message: string): Cause => ({ reason: 'volume', type, field, message });
  if (str(obj(dv['metadata'])?.['name']) === '')
    return cause('FieldValueRequired', `${at}.name`, `'name' field must not be empty for DataVolumeTemplate entry ${at}.name.`);
  const pvc = isSet(spec['pvc']) ? (obj(spec['pvc']) ?? {}) : undefined;
  const storage = isSet(spec['storage']) ? (obj(spec['storage']) ?? {}) : undefined;
  if (!pvc && !storage) return cause('FieldValueInvalid', `${at}.PVC.Storage`, 'Missing Data volume PVC or Storage');
  if (pvc && storage) return cause('FieldValueInvalid', `${at}.PVC.Storage`, 'Duplicate storage definition, both target storage and target pvc defined');
  const target = pvc ?? storage!;
  const external = isSet(target['dataSourceRef']) || isSet(target['dataSource']);
  const sourced = isSet(spec['source']) || isSet(spec['sourceRef']);
  if (external && sourced) return cause('FieldValueInvalid', `${at}.source`, 'External population is incompatible with Source and SourceRef');
  if (!external && !sourced)
    return cause('FieldValueInvalid', `${at}.source.sourceRef`, 'Data volume should have either Source, SourceRef, or be externally populated');
  const source = obj(spec['source']);
  if (isSet(spec['source'])) {
    const n = DATA_VOLUME_SOURCES.filter((k) => isSet(source?.[k])).length;
    if (n === 0) return cause('FieldValueInvalid', `${at}.source`, 'Missing dataVolume valid source');
    if (n > 1) return cause('FieldValueInvalid', `${at}.source`, 'Multiple dataVolume sources');
  }
  return undefined;
}

/** ValidateDataVolumeTemplate: each template sound, and named by a volume of the VM's template. */
function dataVolumeTemplateCauses(spec: JsonObject, field: string): Cause[] {
  const volumes = list(obj(obj(spec['template'])?.['spec'])?.['volumes']);
  return list(spec['dataVolumeTemplates']).flatMap((dv, i) => {
    const at = `${field}.dataVolumeTemplate[${i}]`;
    const problem = dataVolumeProblem(dv, at);
    if (problem) return [problem];
    const name = str(obj(dv['metadata'])?.['name']);
    const named = volumes.some((v) => str(obj(v['persistentVolumeClaim'])?.['claimName']) === name || str(obj(v['dataVolume'])?.['name']) === name);
    return named
      ? []
      : [
          {
            reason: 'volume',
            type: 'FieldValueRequired',
            field: at,
            message: `DataVolumeTemplate entry ${at} must be referenced in the VMI template's 'volumes' list`,
          },
        ];
  });
}

/** validateRunStrategy. */
function runStrategyCauses(spec: JsonObject, config: ClusterDefaults, field: string): Cause[] {
  const causes: Cause[] = [];
  const running = isSet(spec['running']);
  const strategy = isSet(spec['runStrategy']) ? str(spec['runStrategy']) : undefined;
  const add = (at: string, message: string): void => {
    causes.push({ reason: 'start-strategy', type: 'FieldValueInvalid', field: at, message });
  };
  if (running && strategy !== undefined)
    add(`${field}.running`, 'Running and RunStrategy are mutually exclusive. Note that Running is deprecated, please use RunStrategy instead');
  if (!running && strategy === undefined) add(`${field}.running`, 'RunStrategy must be specified');
  if (strategy === 'WaitAsReceiver') {
    if (!gateEnabled(config, 'DecentralizedLiveMigration'))
      add(`${field}.runStrategy`, `Invalid RunStrategy (${strategy}), DecentralizedLiveMigration feature gate is not enabled in kubevirt resource`);
  } else if (strategy !== undefined && !RUN_STRATEGIES.has(strategy)) add(`${field}.runStrategy`, `Invalid RunStrategy (${strategy})`);
  return causes;
}

/** validateLiveUpdateFeatures (under the LiveUpdate rollout strategy): sockets within maxSockets, memory hotplug possible with maxGuest. */
function liveUpdateCauses(template: JsonObject, config: ClusterDefaults, field = 'spec.template.spec'): Cause[] {
  if ((config.vmRolloutStrategy ?? 'LiveUpdate') !== 'LiveUpdate') return [];
  const out: Cause[] = [];
  const cpu = obj(obj(template['domain'])?.['cpu']);
  if (
    cpu &&
    typeof cpu['sockets'] === 'number' &&
    typeof cpu['maxSockets'] === 'number' &&
    cpu['sockets'] !== 0 &&
    cpu['maxSockets'] !== 0 &&
    cpu['sockets'] > cpu['maxSockets']
  )
    out.push({
      reason: 'cpu-hotplug',
      type: 'FieldValueInvalid',
      field: `${field}.domain.cpu.sockets`,
      message: 'Number of sockets in CPU topology is greater than the maximum sockets allowed',
    });
  const maxGuest = obj(obj(template['domain'])?.['memory'])?.['maxGuest'];
  if (typeof maxGuest === 'string' || typeof maxGuest === 'number') {
    const problem = memoryHotplugProblem(template, parseQuantity(maxGuest));
    if (problem) out.push({ reason: 'memory', type: 'FieldValueInvalid', field: `${field}.domain.memory.guest`, message: problem });
  }
  return out;
}

/**
 * ValidateVirtualMachineSpec, the VM webhook's on CREATE and UPDATE: the template's metadata and its
 * Grace IO annotations, the template's spec (ValidateVirtualMachineInstanceSpec), then the VM's own
 * rules: DataVolume templates, the run strategy, the live update limits. `vm` is the admitted copy
 * (the instance type applied; on CREATE the template's VMI defaults set too).
 */
export function validateVmSpec(vm: JsonObject, config: ClusterDefaults): Cause[] {
  const spec = obj(vm['spec']) ?? {};
  const meta = obj(obj(spec['template'])?.['metadata']) ?? {};
  const template = obj(obj(spec['template'])?.['spec']);
  return [
    ...metadataCauses(meta, config, 'spec.template.metadata', false),
    ...graceAnnotationCauses(template ?? {}, obj(meta['annotations']) ?? {}, config, 'spec.template.metadata'),
    ...(template ? validateInstanceSpec(template, config, 'spec.template.spec') : []),
    ...dataVolumeTemplateCauses(spec, 'spec'),
    ...runStrategyCauses(spec, config, 'spec'),
    ...liveUpdateCauses(template ?? {}, config),
  ];
}

/** The storage admitter's Admit on CREATE, after the spec passed: a DataVolume template in another namespace than the VM's. */
export function dataVolumeNamespaceCauses(vm: JsonObject): Cause[] {
  const ns = str(obj(vm['metadata'])?.['namespace']) || 'default';
  return list(obj(vm['spec'])?.['dataVolumeTemplates']).flatMap((dv, i): Cause[] => {
    const dvNs = str(obj(dv['metadata'])?.['namespace']);
    return dvNs !== '' && dvNs !== ns
      ? [
          {
            reason: 'volume',
            type: 'FieldValueInvalid',
            field: `spec.dataVolumeTemplates[${i}]`,
            message: `Embedded DataVolume namespace ${dvNs} differs from VM namespace ${ns}`,
          },
        ]
      : [];
  });
}

/**
 * The VM mutating webhook replaces `/spec` with the spec as Go marshals it (vm-mutator.go), and the
 * validating webhook first checks that against KubeVirt's schema (`ValidateSchema`): a DataVolume
 * template's `dataSource` or `dataSourceRef` written without `apiGroup` comes back `apiGroup: null`
 * (Kubernetes' types have no omitempty there), which the schema refuses, in kube-openapi's words.
 */
export function mutatorRoundTripCauses(vm: JsonObject): Cause[] {
  const messages = new Set<string>();
  for (const dv of list(obj(vm['spec'])?.['dataVolumeTemplates'])) {
    const spec = obj(dv['spec']) ?? {};
    for (const target of ['pvc', 'storage'])
      for (const ref of ['dataSource', 'dataSourceRef']) {
        const r = obj(obj(spec[target])?.[ref]);
        if (r && !isSet(r['apiGroup'])) messages.add(`spec.dataVolumeTemplates.spec.${target}.${ref}.apiGroup in body must be of type string: "null"`);
      }
  }
  return [...messages].map((message) => ({ reason: 'volume', type: 'FieldValueInvalid', field: message.slice(0, message.indexOf(' ')), message }));
}

/** The discontinued feature gates and the VM fields they stood for (featuregate/inactive.go). */
const DISCONTINUED_GATES: readonly (readonly [string, string])[] = [
  ['Passt', 'passt'],
  ['Macvtap', 'macvtap'],
];

/**
 * featuregate.ValidateFeatureGates, which the VM webhook runs on CREATE before anything else of
 * the spec: a discontinued gate the KubeVirt CR still lists while the VM uses what it stood for.
 */
export function discontinuedGateCauses(templateSpec: JsonObject, config: ClusterDefaults): Cause[] {
  const interfaces = list(obj(obj(templateSpec['domain'])?.['devices'])?.['interfaces']);
  return (config.featureGates ?? []).flatMap((gate): Cause[] => {
    const field = DISCONTINUED_GATES.find(([g]) => g === gate)?.[1];
    if (field === undefined || !interfaces.some((i) => isSet(i[field]))) return [];
    return [
      {
        reason: 'cluster-feature',
        type: 'FieldValueNotSupported',
        field: '',
        message: `${gate} network binding is discontinued since v1.3. Please refer to Kubevirt user guide for alternatives.`,
      },
    ];
  });
}
