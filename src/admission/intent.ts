/**
 * What the VM owner meant: VMs KubeVirt admits and starts, but not as their owner wrote them to.
 * Each is a warning with its code, at the field: memory in decimal units (IT8012: `8G` is 7.45Gi),
 * an object the catalog deprecates (IT8302, with its replacement), a VM field that changes its
 * instance type's class (IT8013: dedicated CPUs, an isolated emulator thread, hugepages on a type
 * that has none), and a root volume whose DataSource, DataVolume or PVC names another default
 * instance type or preference than the VM (IT8014, KubeVirt's `instancetype.kubevirt.io/default-*`
 * labels, which only `inferFromVolume` reads).
 */
import { diag, type Diagnostic } from '../diagnostics';
import { manifestObjects, type FoundObject } from '../expand/documents';
import type { ObjectStore } from '../expand';
import { obj, type JsonObject } from '../json';
import { locate, type PathSegment, type SourceDoc } from '../load/source';
import { parseQuantity } from '../quantity';
import type { RenderedObject } from '../render/manifests';
import { matcherKind, type SpecKind } from '../schema/kubevirt-api';

const DEFAULT_LABEL: Readonly<Record<SpecKind, string>> = {
  instancetype: 'instancetype.kubevirt.io/default-instancetype',
  preference: 'instancetype.kubevirt.io/default-preference',
};
const DECIMAL = /^([0-9]+(?:\.[0-9]+)?)([kMGTPE])$/;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The owner-intent warnings of every VirtualMachine of `docs`, against the catalog objects and the store's volumes. */
export function ownerIntent(docs: readonly SourceDoc[], store: ObjectStore, objects: readonly RenderedObject[]): Diagnostic[] {
  return manifestObjects(docs)
    .filter((f) => f.value['kind'] === 'VirtualMachine')
    .flatMap((f) => [...decimalMemory(f), ...deprecated(f, objects), ...classChanges(f, objects), ...volumeDefaults(f, store)]);
}

const name = (f: FoundObject): string => str(obj(f.value['metadata'])?.['name']) || '(unnamed)';
const at = (f: FoundObject, path: readonly PathSegment[]): ReturnType<typeof locate> => locate(f.src, [...f.path, ...path]);
const templateSpec = (f: FoundObject): JsonObject => obj(obj(obj(f.value['spec'])?.['template'])?.['spec']) ?? {};

function decimalMemory(f: FoundObject): Diagnostic[] {
  const domain = obj(templateSpec(f)['domain']) ?? {};
  const places: [string, readonly PathSegment[]][] = [
    [str(obj(domain['memory'])?.['guest']), ['domain', 'memory', 'guest']],
    [str(obj(obj(domain['resources'])?.['requests'])?.['memory']), ['domain', 'resources', 'requests', 'memory']],
    [str(obj(obj(domain['resources'])?.['limits'])?.['memory']), ['domain', 'resources', 'limits', 'memory']],
  ];
  return places.flatMap(([value, path]) => {
    const m = DECIMAL.exec(value);
    if (!m) return [];
    const bytes = parseQuantity(value) ?? 0;
    const binary = `${m[1]}${m[2] === 'k' ? 'K' : m[2]}i`;
    return [
      diag(
        'IT8012',
        `VirtualMachine \`${name(f)}\`: memory \`${value}\` is ${bytes.toLocaleString('en-US')} bytes (${(bytes / 2 ** 30).toFixed(2)}Gi), not ${binary}`,
        at(f, ['spec', 'template', 'spec', ...path]),
        {
          severity: 'warning',
          hint: `write ${binary} for ${m[1]} ${m[2] === 'k' ? 'Ki' : `${m[2]}i`}B; instance types and the nodes count memory in powers of 1024`,
        },
      ),
    ];
  });
}

/** The catalog object a VM's matcher names (the cluster-wide one unless the matcher names the namespaced kind). */
function named(f: FoundObject, which: SpecKind, objects: readonly RenderedObject[]): RenderedObject | undefined {
  const matcher = obj(obj(f.value['spec'])?.[which]);
  if (!matcher || typeof matcher['name'] !== 'string') return undefined;
  const kind = matcherKind(which, typeof matcher['kind'] === 'string' ? matcher['kind'] : undefined);
  return objects.find((o) => o.manifest.kind === kind && o.manifest.metadata.name === matcher['name']);
}

function deprecated(f: FoundObject, objects: readonly RenderedObject[]): Diagnostic[] {
  return (['instancetype', 'preference'] as const).flatMap((which) => {
    const o = named(f, which, objects);
    if (!o?.source.deprecated) return [];
    const replacement = o.source.deprecated.replacement;
    return [
      diag(
        'IT8302',
        `VirtualMachine \`${name(f)}\` uses ${o.manifest.kind} \`${o.manifest.metadata.name}\`, which is deprecated`,
        at(f, ['spec', which, 'name']),
        {
          severity: 'warning',
          hint:
            replacement !== undefined ? `switch to \`${replacement}\`, its replacement` : 'the catalog deprecates it: it will be removed in a later release',
        },
      ),
    ];
  });
}

function classChanges(f: FoundObject, objects: readonly RenderedObject[]): Diagnostic[] {
  const it = named(f, 'instancetype', objects);
  if (!it) return [];
  const spec = (it.manifest as unknown as { spec?: JsonObject }).spec ?? {};
  const itCpu = obj(spec['cpu']) ?? {};
  const domain = obj(templateSpec(f)['domain']) ?? {};
  const cpu = obj(domain['cpu']) ?? {};
  const cls = it.source.kind === 'instancetype' && it.source.class ? ` (class ${it.source.class})` : '';
  const what = `${it.manifest.kind} \`${it.manifest.metadata.name}\`${cls}`;
  const out: Diagnostic[] = [];
  const changes: [boolean, readonly PathSegment[], string][] = [
    [cpu['dedicatedCpuPlacement'] === true && itCpu['dedicatedCPUPlacement'] !== true, ['cpu', 'dedicatedCpuPlacement'], 'gives the VM dedicated CPUs'],
    [
      cpu['isolateEmulatorThread'] === true && itCpu['isolateEmulatorThread'] !== true,
      ['cpu', 'isolateEmulatorThread'],
      'gives the VM an isolated emulator thread',
    ],
    [
      obj(obj(domain['memory'])?.['hugepages']) !== undefined && obj(obj(spec['memory'])?.['hugepages']) === undefined,
      ['memory', 'hugepages'],
      'backs the VM with hugepages',
    ],
  ];
  for (const [changed, path, does] of changes)
    if (changed)
      out.push(
        diag(
          'IT8013',
          `VirtualMachine \`${name(f)}\`: \`${path.join('.')}\` ${does}, which ${what} does not`,
          at(f, ['spec', 'template', 'spec', 'domain', ...path]),
          {
            severity: 'warning',
            hint: 'KubeVirt keeps the field, so the VM is not what its instance type says (nor what quotas, dashboards and the catalog count it as): choose an instance type that has it, or remove the field',
          },
        ),
      );
  return out;
}

/** The labels of the object a VM's root volume comes from: its DataVolume template's DataSource, a DataVolume or a PVC in the store. */
function volumeLabels(
  f: FoundObject,
  store: ObjectStore,
): { labels: Record<string, string>; from: string; path: readonly PathSegment[]; volume: string } | undefined {
  const spec = obj(f.value['spec']) ?? {};
  const namespace = str(obj(f.value['metadata'])?.['namespace']) || 'default';
  const find = (kind: string, n: string, ns: string): JsonObject | undefined =>
    store.volumes.find((v) => v['kind'] === kind && obj(v['metadata'])?.['name'] === n && (str(obj(v['metadata'])?.['namespace']) || ns) === ns);
  const labelsOf = (o: JsonObject): Record<string, string> => (obj(obj(o['metadata'])?.['labels']) ?? {}) as Record<string, string>;
  const templates = Array.isArray(spec['dataVolumeTemplates']) ? spec['dataVolumeTemplates'] : [];
  const volumes = Array.isArray(templateSpec(f)['volumes']) ? (templateSpec(f)['volumes'] as unknown[]) : [];
  // The root volume: the first volume of the VM (the boot disk by convention of every template).
  const first = obj(volumes[0]);
  if (!first) return undefined;
  const volume = str(first['name']);
  const dv = str(obj(first['dataVolume'])?.['name']);
  const pvc = str(obj(first['persistentVolumeClaim'])?.['claimName']);
  if (dv !== '') {
    const i = templates.findIndex((t) => obj(obj(t)?.['metadata'])?.['name'] === dv);
    const ref = obj(obj(obj(templates[i])?.['spec'])?.['sourceRef']);
    if (ref && str(ref['kind']) === 'DataSource') {
      const ds = find('DataSource', str(ref['name']), str(ref['namespace']) || namespace);
      if (ds)
        return { labels: labelsOf(ds), from: `DataSource ${str(ref['name'])}`, path: ['spec', 'dataVolumeTemplates', i, 'spec', 'sourceRef', 'name'], volume };
    }
    const found = find('DataVolume', dv, namespace);
    if (found) return { labels: labelsOf(found), from: `DataVolume ${dv}`, path: ['spec', 'template', 'spec', 'volumes', 0, 'dataVolume', 'name'], volume };
  }
  if (pvc !== '') {
    const found = find('PersistentVolumeClaim', pvc, namespace);
    if (found)
      return {
        labels: labelsOf(found),
        from: `PersistentVolumeClaim ${pvc}`,
        path: ['spec', 'template', 'spec', 'volumes', 0, 'persistentVolumeClaim', 'claimName'],
        volume,
      };
  }
  return undefined;
}

function volumeDefaults(f: FoundObject, store: ObjectStore): Diagnostic[] {
  const volume = volumeLabels(f, store);
  if (!volume) return [];
  const spec = obj(f.value['spec']) ?? {};
  return (['instancetype', 'preference'] as const).flatMap((which) => {
    const wanted = volume.labels[DEFAULT_LABEL[which]];
    if (wanted === undefined || wanted === '') return [];
    const matcher = obj(spec[which]);
    if (matcher && str(matcher['inferFromVolume']) !== '') return [];
    const has = matcher ? str(matcher['name']) : '';
    if (has === wanted) return [];
    return [
      diag(
        'IT8014',
        has === ''
          ? `VirtualMachine \`${name(f)}\` names no ${which}, and its root volume's ${volume.from} says \`${wanted}\``
          : `VirtualMachine \`${name(f)}\` names ${which} \`${has}\`, and its root volume's ${volume.from} says \`${wanted}\``,
        has === '' ? at(f, volume.path) : at(f, ['spec', which, 'name']),
        {
          severity: 'warning',
          hint: `KubeVirt applies only what the VM names: write ${which}: {name: ${wanted}}, or {inferFromVolume: ${volume.volume || '<volume>'}} to take the volume's`,
        },
      ),
    ];
  });
}
