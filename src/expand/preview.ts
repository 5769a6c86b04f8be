/**
 * What a VM runs as: the VirtualMachineInstance KubeVirt creates when it starts, through
 * its own start path. In KubeVirt's order: the rest of the VM mutating webhook on CREATE (the
 * firmware UUID and serial, `SetVirtualMachineDefaults`, the PCI topology annotation), then the VM
 * controller's `startVMI` (pkg/virt-controller/watch/vm/vm.go: `SetupVMIFromVM`, the start
 * revision and generation annotation, the controller finalizer, `ApplyAutoAttachPreferences`,
 * `AutoAttachInputDevice`, `SetDefaultNetworkInterface`, `ApplyToVMI` with its annotations), then
 * the VMI mutating webhook (kubevirt/vmi.ts). Values KubeVirt draws at random or from the running
 * cluster are the fixed placeholders of PREVIEW_PLACEHOLDERS.
 */
import { list, obj, type JsonObject } from '../json';
import type { ClusterDefaults } from '../kubevirt/config';
import { clusterMachineType, setDefaultInstanceSpec, setDefaultNetworkInterface, setDefaultVolumeDisks } from '../kubevirt/defaults';
import { child, copy, isSet, nonEmpty } from '../kubevirt/go';
import { renderLauncherPod } from '../kubevirt/pod';
import { backendStorage, missingAttachmentDefinition } from '../kubevirt/pod-placement';
import { mandatoryFieldCauses, metadataCauses, validateInstanceSpec, validatePerArch } from '../kubevirt/spec-validation';
import { dataVolumeNamespaceCauses, discontinuedGateCauses, validateVmSpec } from '../kubevirt/vm-spec';
import { discontinuedBindingCauses } from '../kubevirt/spec-network';
import { graceAnnotationCauses } from '../kubevirt/spec-grace';
import { hookSidecarListError } from '../kubevirt/go-json';
import { hypervCauses, storageValidatorCauses, volumeDiskCauses } from '../kubevirt/spec-vmi-create';
import { annotatesPciTopology, mutateNewVmi } from '../kubevirt/vmi';
import { KINDS_OF, matcherKind } from '../schema/kubevirt-api';
import { applyInstancetype, conflictField } from './instancetype';
import { admit } from './expand';
import type { References } from './model';
import { type ObjectStore } from './references';
import { applyPreference } from './preference';

/** What KubeVirt would draw at random or take from the cluster, fixed (`itgen help expand` names them). */
export const PREVIEW_PLACEHOLDERS = {
  vmiUid: '00000000-0000-0000-0000-000000000001',
  vmUid: '00000000-0000-0000-0000-000000000002',
  firmwareUuid: '00000000-0000-0000-0000-000000000003',
  firmwareSerial: '00000000-0000-0000-0000-000000000004',
} as const;

/** Where KubeVirt stops with a VM it refuses or never starts (judge.ts, in KubeVirt's order). */
export type RefusalStage = 'schema' | 'mutate' | 'admit' | 'lookup' | 'expand' | 'startVMI' | 'vmiAdmit' | 'render';

export type StartResult = { readonly vmi: JsonObject; readonly notes: readonly string[] } | { readonly error: string; readonly stage: 'startVMI' };

/**
 * The VM mutating webhook's part after the instancetype mutator (mutate.ts): a firmware UUID and
 * serial where the template has none, the default architecture and machine type, and the template's
 * PCI topology annotation. `vm` is changed in place.
 */
export function finishVmMutation(vm: JsonObject, config: ClusterDefaults): void {
  const template = obj(obj(vm['spec'])?.['template']);
  if (!template) return;
  const spec = child(template, 'spec');
  const firmware = child(child(spec, 'domain'), 'firmware');
  if (!nonEmpty(firmware['uuid'])) firmware['uuid'] = PREVIEW_PLACEHOLDERS.firmwareUuid;
  if (!nonEmpty(firmware['serial'])) firmware['serial'] = PREVIEW_PLACEHOLDERS.firmwareSerial;
  if (!nonEmpty(spec['architecture'])) spec['architecture'] = config.architecture;
  const machine = child(child(spec, 'domain'), 'machine');
  // GetMachineType: the cluster's, else the architecture's, amd64's for any other.
  if (!nonEmpty(machine['type'])) machine['type'] = clusterMachineType(config, String(spec['architecture'])) ?? config.machineTypes?.['amd64'] ?? 'q35';
  if (annotatesPciTopology(spec, config.release)) {
    const annotations = child(child(template, 'metadata'), 'annotations');
    if (!isSet(annotations['kubevirt.io/pci-topology-version'])) annotations['kubevirt.io/pci-topology-version'] = 'v3';
  }
}

/** The name of the annotation ApplyToVMI sets for a matcher's kind (pkg/instancetype/annotations). */
function matcherAnnotation(kind: unknown, which: 'instancetype' | 'preference'): string | undefined {
  const named = matcherKind(which, typeof kind === 'string' ? kind : undefined);
  if (named === undefined) return undefined;
  const cluster = named === KINDS_OF[which].cluster;
  return which === 'instancetype'
    ? cluster
      ? 'kubevirt.io/cluster-instancetype-name'
      : 'kubevirt.io/instancetype-name'
    : cluster
      ? 'kubevirt.io/cluster-preference-name'
      : 'kubevirt.io/preference-name';
}

const AUTOATTACH: readonly [string, string][] = [
  ['preferredAutoattachGraphicsDevice', 'autoattachGraphicsDevice'],
  ['preferredAutoattachMemBalloon', 'autoattachMemBalloon'],
  ['preferredAutoattachPodInterface', 'autoattachPodInterface'],
  ['preferredAutoattachSerialConsole', 'autoattachSerialConsole'],
  ['preferredAutoattachInputDevice', 'autoattachInputDevice'],
];

/**
 * The VMI the VM controller creates for a stored VM (`finishVmMutation` done) and the VMI
 * webhook's defaults on it. `refs`: the instance type and preference the VM names, found.
 */
export function startVmi(stored: JsonObject, refs: References, config: ClusterDefaults): StartResult {
  const notes: string[] = [];
  const meta = obj(stored['metadata']) ?? {};
  const vmSpec = obj(stored['spec']) ?? {};
  const template = obj(vmSpec['template']) ?? {};
  const name = String(meta['name'] ?? '');
  const runStrategy = vmSpec['runStrategy'] ?? (vmSpec['running'] === true ? 'Always' : vmSpec['running'] === false ? 'Halted' : undefined);
  if (runStrategy === 'Halted' || runStrategy === 'Manual')
    notes.push(`runStrategy ${String(runStrategy)}: previewed as started (virtctl start), since the VM does not start by itself`);
  // SetupVMIFromVM
  const vmiMeta: JsonObject = copy(obj(template['metadata']) ?? {});
  delete vmiMeta['generateName'];
  vmiMeta['name'] = name;
  vmiMeta['namespace'] = meta['namespace'] ?? 'default';
  if (isSet(obj(template['metadata'])?.['labels'])) vmiMeta['labels'] = copy(obj(template['metadata'])!['labels']!);
  else delete vmiMeta['labels'];
  vmiMeta['ownerReferences'] = [
    {
      apiVersion: 'kubevirt.io/v1',
      blockOwnerDeletion: true,
      controller: true,
      kind: 'VirtualMachine',
      name,
      uid: typeof meta['uid'] === 'string' ? meta['uid'] : PREVIEW_PLACEHOLDERS.vmUid,
    },
  ];
  const spec: JsonObject = copy(obj(template['spec']) ?? {});
  setDefaultVolumeDisks(spec);
  const vmUid = typeof meta['uid'] === 'string' ? meta['uid'] : PREVIEW_PLACEHOLDERS.vmUid;
  const generation = typeof meta['generation'] === 'number' ? meta['generation'] : 1;
  const status: JsonObject = { virtualMachineRevisionName: `revision-start-vm-${vmUid}-${generation}` };
  child(vmiMeta, 'annotations')['kubevirt.io/vm-generation'] = String(generation);
  vmiMeta['finalizers'] = [...(Array.isArray(vmiMeta['finalizers']) ? vmiMeta['finalizers'] : []), 'kubevirt.io/virtualMachineControllerFinalize'];
  // ApplyAutoAttachPreferences: only when the VM names a preference.
  const prefDevices = obj(refs.preference?.spec['devices']);
  if (isSet(vmSpec['preference']) && prefDevices) {
    const devices = child(child(spec, 'domain'), 'devices');
    for (const [from, to] of AUTOATTACH) if (isSet(prefDevices[from]) && !isSet(devices[to])) devices[to] = prefDevices[from]!;
  }
  // AutoAttachInputDevice
  const devices = child(child(spec, 'domain'), 'devices');
  if (devices['autoattachInputDevice'] === true && !(Array.isArray(devices['inputs']) && devices['inputs'].length > 0))
    devices['inputs'] = [{ name: 'default-0' }];
  setDefaultNetworkInterface(spec, config);
  // ApplyToVMI
  if (refs.instancetype || refs.preference) {
    const im = obj(vmSpec['instancetype']);
    const pm = obj(vmSpec['preference']);
    const itKey = im ? matcherAnnotation(im['kind'], 'instancetype') : undefined;
    const prefKey = pm ? matcherAnnotation(pm['kind'], 'preference') : undefined;
    if (im) child(vmiMeta, 'annotations');
    if (itKey) child(vmiMeta, 'annotations')[itKey] = im!['name'] ?? '';
    if (pm) child(vmiMeta, 'annotations');
    if (prefKey) child(vmiMeta, 'annotations')[prefKey] = pm!['name'] ?? '';
    if (refs.instancetype) {
      const conflicts = applyInstancetype(spec, vmiMeta, refs.instancetype.spec, refs.preference?.spec, config.release);
      if (conflicts.length > 0)
        return { error: `VMI conflicts with instancetype spec in fields: [${conflicts.map((c) => conflictField('spec', c)).join(', ')}]`, stage: 'startVMI' };
    }
    if (refs.preference) applyPreference(spec, vmiMeta, refs.preference.spec, config.release);
  }
  const vmi: JsonObject = {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachineInstance',
    metadata: { ...vmiMeta, uid: PREVIEW_PLACEHOLDERS.vmiUid },
    spec,
    status,
  };
  return { vmi: mutateNewVmi(vmi, config), notes };
}

export type PreviewResult =
  | { readonly vm: JsonObject; readonly vmi: JsonObject; readonly pod: JsonObject; readonly memoryOverhead: string; readonly notes: readonly string[] }
  | {
      readonly error: string;
      readonly stage: RefusalStage;
      /** KubeVirt's causes, each with the field it names (of the VM, or `spec...` of the VMI). */
      readonly causes: readonly { readonly field: string; readonly message: string }[];
    };

/**
 * A VM KubeVirt's instancetype admission accepted (`stored`: as the API server keeps it, with its
 * namespace), started: the rest of the VM webhooks, the VM controller, the VMI webhooks and the
 * launcher pod's render. `stored` is not changed, unless `owned` hands it over.
 *
 * Over 80 lines: KubeVirt's start path stage by stage (the VM webhook's rest, the VM controller, the
 * VMI webhooks, the render), each returning its refusal, read beside vms-admitter.go and vm.go.
 */
export function startStored(
  storedVm: JsonObject,
  refs: References,
  config: ClusterDefaults,
  store: ObjectStore,
  admittedVm?: JsonObject,
  owned = false,
): PreviewResult {
  // A caller that made the VM for this start hands it over (`owned`): it is finished in place.
  const stored = owned ? storedVm : copy(storedVm);
  finishVmMutation(stored, config);
  const ns = String(obj(stored['metadata'])?.['namespace'] ?? 'default');
  // ValidateVirtualMachineSpec on the template as admission expanded it (the firmware the webhook
  // draws changes nothing it checks).
  const checked = admittedVm ?? admit(stored, refs, { cluster: config }).vm ?? stored;
  // The VM webhook validates a copy of the template with the instance type applied and the VMI
  // defaults set (vms-admitter.go: ApplyToVM, then SetDefaultVirtualMachineInstanceSpec).
  const written = obj(obj(obj(checked['spec'])?.['template'])?.['spec']);
  const template = written ? copy(written) : undefined;
  if (template) setDefaultInstanceSpec(template, config);
  // On CREATE, before the spec's rules, each ending the admission: the discontinued gates the CR
  // lists, then the discontinued bindings (KubeVirt's path here is `spec`, not the template's).
  const writtenSpec = obj(obj(obj(stored['spec'])?.['template'])?.['spec']) ?? {};
  for (const early of [discontinuedGateCauses(writtenSpec, config), template ? discontinuedBindingCauses(template, config, 'spec') : []])
    if (early.length > 0) return { error: early.map((c) => c.message).join(', '), stage: 'admit', causes: early };
  const checkedCopy = template
    ? { ...checked, spec: { ...(obj(checked['spec']) ?? {}), template: { ...(obj(obj(checked['spec'])?.['template']) ?? {}), spec: template } } }
    : checked;
  const specCauses = validateVmSpec(checkedCopy, config);
  if (specCauses.length > 0) return { error: specCauses.map((c) => c.message).join(', '), stage: 'admit', causes: specCauses };
  const storageCauses = dataVolumeNamespaceCauses(stored);
  if (storageCauses.length > 0) return { error: storageCauses.map((c) => c.message).join(', '), stage: 'admit', causes: storageCauses };
  const started = startVmi(stored, refs, config);
  if ('error' in started) return { ...started, causes: [{ field: 'spec.template.spec', message: started.error }] };
  // The VMI create webhook.
  const vmiSpec = obj(started.vmi['spec']) ?? {};
  const vmiCauses = [
    ...storageValidatorCauses(vmiSpec, config, 'spec'),
    ...validateInstanceSpec(vmiSpec, config, 'spec'),
    ...volumeDiskCauses(vmiSpec, config, 'spec'),
    ...mandatoryFieldCauses(vmiSpec, 'spec', config.release),
    ...metadataCauses(obj(started.vmi['metadata']) ?? {}, config, 'metadata', true),
    ...graceAnnotationCauses(vmiSpec, obj(obj(started.vmi['metadata'])?.['annotations']) ?? {}, config, 'metadata'),
    ...hypervCauses(vmiSpec),
    ...validatePerArch(vmiSpec, 'spec', config),
  ];
  if (vmiCauses.length > 0) return { error: vmiCauses.map((c) => c.message).join(', '), stage: 'vmiAdmit', causes: vmiCauses };
  // The API server gives a namespaced object created without a namespace the request's.
  const cluster = (store.cluster ?? []).map((o) =>
    o['kind'] === 'Node' || o['kind'] === 'Namespace' || typeof obj(o['metadata'])?.['namespace'] === 'string'
      ? o
      : { ...o, metadata: { ...(obj(o['metadata']) ?? {}), namespace: ns } },
  );
  const backend = backendStorage(vmiSpec, config, cluster, store.storageClassesGiven ?? false);
  if (backend?.error !== undefined)
    return { error: backend.error, stage: 'render', causes: [{ field: 'spec.template.spec.domain.devices', message: backend.error }] };
  const nad = missingAttachmentDefinition(vmiSpec, config, cluster, ns, store.networkAttachmentDefinitionsGiven ?? false);
  if (nad !== undefined) return { error: nad, stage: 'render', causes: [{ field: 'spec.template.spec.networks', message: nad }] };
  // The hook sidecars the render adds (hooks.UnmarshalHookSidecarList): Go's words for an annotation it cannot read.
  const sidecars = obj(obj(started.vmi['metadata'])?.['annotations'])?.['hooks.kubevirt.io/hookSidecars'];
  const sidecarError = typeof sidecars === 'string' ? hookSidecarListError(sidecars) : undefined;
  if (sidecarError !== undefined)
    return {
      error: sidecarError,
      stage: 'render',
      causes: [{ field: 'spec.template.metadata.annotations.hooks.kubevirt.io/hookSidecars', message: sidecarError }],
    };
  const rendered = renderLauncherPod(started.vmi, config, cluster);
  if ('error' in rendered) return { error: rendered.error, stage: 'render', causes: [{ field: 'spec.template.spec.domain.devices', message: rendered.error }] };
  // KubeVirt renders the pod only once the PVCs of its volumes exist (it reads each one's volume mode).
  const claims = new Set(
    (store.volumes ?? [])
      .filter((v) => v['kind'] === 'PersistentVolumeClaim' && (obj(v['metadata'])?.['namespace'] ?? ns) === ns)
      .map((v) => String(obj(v['metadata'])?.['name'])),
  );
  const missing = list(vmiSpec['volumes']).flatMap((v) => {
    const claim = obj(v['persistentVolumeClaim'])?.['claimName'] ?? obj(v['dataVolume'])?.['name'];
    return typeof claim === 'string' && !claims.has(claim) ? [claim] : [];
  });
  if (missing.length > 0 && store.persistentVolumeClaimsGiven)
    return {
      error: `didn't find PVC ${missing[0]!}`,
      stage: 'render',
      causes: [{ field: 'spec.template.spec.volumes', message: `didn't find PVC ${missing[0]!}` }],
    };
  const pvcNote =
    missing.length > 0
      ? [
          `PersistentVolumeClaim ${missing.join(', ')} not given: KubeVirt renders the pod once it exists (a missing one fails the render: didn't find PVC), and mounts it by its volume mode`,
        ]
      : [];
  const storageNote = backend?.assumed
    ? [
        'persistent TPM or EFI state: the cluster is taken to have a default StorageClass (give its StorageClasses with --with, or vmStateStorageClass in the KubeVirt CR)',
      ]
    : [];
  return {
    vm: stored,
    vmi: started.vmi,
    pod: rendered.pod,
    memoryOverhead: rendered.memoryOverhead,
    notes: [...started.notes, ...rendered.notes, ...pvcNote, ...storageNote],
  };
}
