import { parseQuantity, formatBinary } from '../quantity';
import type { Diagnostic } from '../diagnostics';
import type { ResolvedInstancetype, ResolvedPreference } from '../resolve/types';
import { DEPRECATED_FIELDS, DEPRECATED_TOPOLOGIES } from '../schema/manifest';
import { fieldDiag, get, type Rule } from './context';

/**
 * What KubeVirt's admission webhooks reject, and what makes a VM using the object fail to start.
 * Messages quote KubeVirt's own wording where it has one (kubevirt-api.md, sections b and g).
 */

function instancetypeRule(name: string, description: string, check: (it: ResolvedInstancetype) => Diagnostic[]): Rule {
  return { name, description, check: (ctx) => ctx.catalog.instancetypes.flatMap(check) };
}

function preferenceRule(name: string, description: string, check: (p: ResolvedPreference) => Diagnostic[]): Rule {
  return { name, description, check: (ctx) => ctx.catalog.preferences.flatMap(check) };
}

const PAGE_BYTES: Readonly<Record<string, number>> = { '2Mi': 2 ** 21, '1Gi': 2 ** 30 };

export const KUBEVIRT_RULES: readonly Rule[] = [
  instancetypeRule('cpu-guest-positive', 'an instance type gives the guest at least one vCPU', (it) =>
    get(it.spec, ['cpu', 'guest']) === 0 ? [fieldDiag('IT4012', it, ['cpu', 'guest'], 'a VM needs at least 1 vCPU')] : [],
  ),
  instancetypeRule('overcommit-range', 'overcommitPercent is 0..100 (instancetype webhook)', (it) => {
    const pct = get(it.spec, ['memory', 'overcommitPercent']);
    return typeof pct === 'number' && (pct < 0 || pct > 100)
      ? [fieldDiag('IT4001', it, ['memory', 'overcommitPercent'], `spec.memory.overcommitPercent '${pct}': must be in range between 0 and 100.`)]
      : [];
  }),
  instancetypeRule('overcommit-hugepages', 'overcommit and hugepages are exclusive (instancetype webhook)', (it) => {
    const pct = get(it.spec, ['memory', 'overcommitPercent']);
    return typeof pct === 'number' && pct !== 0 && get(it.spec, ['memory', 'hugepages']) !== undefined
      ? [
          fieldDiag('IT4002', it, ['memory', 'overcommitPercent'], 'spec.memory.overcommitPercent and spec.memory.hugepages should not be requested together.', {
            hint: 'hugepage memory cannot be overcommitted; drop one of the two',
          }),
        ]
      : [];
  }),
  instancetypeRule('hugepage-alignment', 'guest memory is at least, and a multiple of, the hugepage size', (it) => {
    const pageSize = get(it.spec, ['memory', 'hugepages', 'pageSize']);
    const guest = get(it.spec, ['memory', 'guest']);
    if (typeof pageSize !== 'string' || (typeof guest !== 'string' && typeof guest !== 'number')) return [];
    const page = PAGE_BYTES[pageSize] ?? parseQuantity(pageSize);
    const bytes = parseQuantity(guest);
    if (page === undefined || bytes === undefined || page === 0) return [];
    if (bytes < page) {
      return [fieldDiag('IT4005', it, ['memory', 'guest'], `guest memory '${guest}' must be equal to or larger than page size '${pageSize}'`)];
    }
    if (bytes % page !== 0) {
      return [
        fieldDiag('IT4005', it, ['memory', 'guest'], `guest memory '${guest}' is not a multiple of the page size '${pageSize}'`, {
          hint: `use a multiple of ${pageSize}, e.g. ${formatBinary(Math.ceil(bytes / page) * page)}`,
        }),
      ];
    }
    return [];
  }),
  instancetypeRule('hugepage-size', 'hugepage sizes valid on x86_64 are 2Mi and 1Gi', (it) => {
    const pageSize = get(it.spec, ['memory', 'hugepages', 'pageSize']);
    return typeof pageSize === 'string' && !(pageSize in PAGE_BYTES)
      ? [fieldDiag('IT4016', it, ['memory', 'hugepages', 'pageSize'], `page size '${pageSize}' is not valid; for x86_64 valid values are 1Gi and 2Mi`)]
      : [];
  }),
  instancetypeRule('numa-passthrough', 'NUMA guest mapping passthrough needs dedicated CPUs and hugepages', (it) => {
    if (get(it.spec, ['cpu', 'numa', 'guestMappingPassthrough']) === undefined) return [];
    const out: Diagnostic[] = [];
    if (get(it.spec, ['cpu', 'dedicatedCPUPlacement']) !== true) {
      out.push(fieldDiag('IT4006', it, ['cpu', 'numa'], 'spec.domain.cpu.dedicatedCPUPlacement must be set to true when NUMA topology strategy is set in spec.domain.cpu.numa.guestMappingPassthrough'));
    }
    if (get(it.spec, ['memory', 'hugepages']) === undefined) {
      out.push(fieldDiag('IT4006', it, ['cpu', 'numa'], 'spec.domain.memory.hugepages must be requested when NUMA topology strategy is set in spec.domain.cpu.numa.guestMappingPassthrough'));
    }
    return out;
  }),
  instancetypeRule('isolate-needs-dedicated', 'isolateEmulatorThread only with dedicatedCPUPlacement', (it) =>
    get(it.spec, ['cpu', 'isolateEmulatorThread']) === true && get(it.spec, ['cpu', 'dedicatedCPUPlacement']) !== true
      ? [fieldDiag('IT4007', it, ['cpu', 'isolateEmulatorThread'], 'IsolateEmulatorThread should be only set in combination with DedicatedCPUPlacement')]
      : [],
  ),
  instancetypeRule('max-sockets', 'maxSockets leaves room for the sockets the default topology needs', (it) => {
    const max = get(it.spec, ['cpu', 'maxSockets']);
    const guest = get(it.spec, ['cpu', 'guest']);
    // With the default `sockets` topology every vCPU is a socket.
    return typeof max === 'number' && typeof guest === 'number' && max < guest
      ? [
          fieldDiag('IT4009', it, ['cpu', 'maxSockets'], `Number of sockets in CPU topology is greater than the maximum sockets allowed (${guest} vCPUs as sockets, maxSockets ${max})`, {
            hint: 'set maxSockets to at least the vCPU count, or pair the instance type only with preferences using cores or threads',
          }),
        ]
      : [];
  }),
  instancetypeRule('memory-hotplug', 'maxGuest constraints of memory hotplug', (it) => {
    const maxGuest = get(it.spec, ['memory', 'maxGuest']);
    if (typeof maxGuest !== 'string' && typeof maxGuest !== 'number') return [];
    const max = parseQuantity(maxGuest);
    const guest = parseQuantity(get(it.spec, ['memory', 'guest']) as string);
    const out: Diagnostic[] = [];
    if (max !== undefined && guest !== undefined && guest > max) out.push(fieldDiag('IT4013', it, ['memory', 'maxGuest'], 'Guest memory is greater than the configured maxGuest memory'));
    if (max !== undefined && max % 2 ** 21 !== 0) out.push(fieldDiag('IT4013', it, ['memory', 'maxGuest'], 'MaxGuest must be 2Mi aligned'));
    if (guest !== undefined && guest < 2 ** 30) out.push(fieldDiag('IT4013', it, ['memory', 'maxGuest'], 'Memory hotplug is only available for VMs with at least 1Gi of guest memory'));
    if (get(it.spec, ['cpu', 'realtime']) !== undefined) out.push(fieldDiag('IT4013', it, ['memory', 'maxGuest'], 'Memory hotplug is not compatible with realtime VMs'));
    if (get(it.spec, ['cpu', 'numa', 'guestMappingPassthrough']) !== undefined) out.push(fieldDiag('IT4013', it, ['memory', 'maxGuest'], 'Memory hotplug is not compatible with guest mapping passthrough'));
    return out;
  }),
  instancetypeRule('deprecated-instancetype-fields', 'fields KubeVirt deprecated', (it) =>
    DEPRECATED_FIELDS.filter((f) => f.specKind === 'instancetype' && get(it.spec, f.path.split('.')) !== undefined).map((f) =>
      fieldDiag('IT4015', it, f.path.split('.'), f.serverWarning ?? `${f.path} is deprecated since ${f.deprecatedIn}`, { severity: 'warning', hint: f.replacement }),
    ),
  ),
  preferenceRule('cpu-topology', 'preferredCPUTopology is one KubeVirt knows; long forms are deprecated', (p) => {
    const t = get(p.spec, ['cpu', 'preferredCPUTopology']);
    if (typeof t !== 'string') return [];
    const dep = (DEPRECATED_TOPOLOGIES as Record<string, { replacement: string; serverWarning: string } | undefined>)[t];
    return dep ? [fieldDiag('IT4015', p, ['cpu', 'preferredCPUTopology'], dep.serverWarning, { severity: 'warning', hint: `write \`${dep.replacement}\`` })] : [];
  }),
  preferenceRule('spread-options', 'spreadOptions rules of the preference webhook and VM admission', (p) => {
    const out: Diagnostic[] = [];
    const topology = get(p.spec, ['cpu', 'preferredCPUTopology']);
    const ratio = get(p.spec, ['cpu', 'spreadOptions', 'ratio']);
    const across = get(p.spec, ['cpu', 'spreadOptions', 'across']) ?? 'SocketsCores';
    if (ratio === 0 || get(p.spec, ['preferSpreadSocketToCoreRatio']) === 0 && ratio === undefined && (topology === 'spread' || topology === 'preferSpread')) {
      out.push(
        fieldDiag('IT4010', p, ['cpu', 'spreadOptions', 'ratio'], 'a spread ratio of 0 passes the webhook but divides by zero when a VM is admitted', {
          hint: 'use a ratio of at least 1 (the default is 2)',
        }),
      );
    }
    if ((topology === 'spread' || topology === 'preferSpread') && across === 'CoresThreads') {
      const effective = typeof ratio === 'number' ? ratio : (get(p.spec, ['preferSpreadSocketToCoreRatio']) as number | undefined) || 2;
      if (effective !== 2) {
        out.push(fieldDiag('IT4004', p, ['cpu', 'spreadOptions', 'ratio'], 'only a ratio of 2 (1 core 2 threads) is allowed when spreading vCPUs over cores and threads'));
      }
    }
    return out;
  }),
  preferenceRule('cdrom-bus', 'CD-ROMs cannot use the virtio bus', (p) =>
    get(p.spec, ['devices', 'preferredCdromBus']) === 'virtio'
      ? [fieldDiag('IT4011', p, ['devices', 'preferredCdromBus'], 'Bus type virtio is invalid for CD-ROM device', { hint: 'use sata or scsi' })]
      : [],
  ),
  preferenceRule('input-device', 'input devices are tablets', (p) =>
    get(p.spec, ['devices', 'preferredInputType']) === 'keyboard'
      ? [fieldDiag('IT4014', p, ['devices', 'preferredInputType'], 'Input device can have only tablet type.')]
      : [],
  ),
  preferenceRule('video-needs-graphics', 'a video type needs the graphics device', (p) =>
    get(p.spec, ['devices', 'preferredVideoType']) !== undefined && get(p.spec, ['devices', 'preferredAutoattachGraphicsDevice']) === false
      ? [fieldDiag('IT4014', p, ['devices', 'preferredVideoType'], 'Video configuration is not allowed when autoattachGraphicsDevice is set to false')]
      : [],
  ),
  preferenceRule('deprecated-preference-fields', 'fields KubeVirt deprecated', (p) =>
    DEPRECATED_FIELDS.filter((f) => f.specKind === 'preference' && get(p.spec, f.path.split('.')) !== undefined).map((f) =>
      fieldDiag('IT4015', p, f.path.split('.'), `${f.path} is deprecated since ${f.deprecatedIn}`, { severity: 'warning', hint: f.replacement }),
    ),
  ),
];
