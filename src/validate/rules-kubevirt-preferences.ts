/**
 * KubeVirt's rules on preferences (the end of KUBEVIRT_RULES, in its order): CPU topology and
 * spread options, Secure Boot by architecture, CD-ROM bus, input and video devices, devices without
 * effect, deprecated fields, whole bytes.
 */
import { getPath as get } from '../json';
import { bytesProblem, parseQuantity } from '../quantity';
import type { Diagnostic } from '../diagnostics';

import { DEPRECATED_FIELDS, DEPRECATED_TOPOLOGIES, targetRange, VIDEO_TYPES_BY_ARCHITECTURE } from '../schema/kubevirt-api';
import { holds, releasesBetween } from '../kubevirt/releases';
import { fieldDiag, type ObjectRuleContext, type Rule } from './context';
import { preferenceRule, spreadRatio, isSpread, preferenceArchitecture } from './rules-kubevirt-support';

export const KUBEVIRT_PREFERENCE_RULES: readonly Rule<ObjectRuleContext>[] = [
  preferenceRule('cpu-topology', 'preferredCPUTopology is one KubeVirt knows; long forms are deprecated', (p) => {
    const t = get(p.spec, ['cpu', 'preferredCPUTopology']);
    if (typeof t !== 'string') return [];
    const dep = (DEPRECATED_TOPOLOGIES as Record<string, { replacement: string; serverWarning: string } | undefined>)[t];
    return dep
      ? [fieldDiag('IT4015', p, ['cpu', 'preferredCPUTopology'], dep.serverWarning, { severity: 'warning', hint: `write \`${dep.replacement}\`` })]
      : [];
  }),
  preferenceRule('spread-options', 'spreadOptions rules of the preference webhook and VM admission', (p) => {
    const out: Diagnostic[] = [];
    const spread = isSpread(p.spec);
    const ratio = get(p.spec, ['cpu', 'spreadOptions', 'ratio']);
    const across = get(p.spec, ['cpu', 'spreadOptions', 'across']) ?? 'SocketsCores';
    // preferSpreadSocketToCoreRatio: 0 falls back to 2; only spreadOptions.ratio: 0 reaches the division.
    if (ratio === 0) {
      out.push(
        fieldDiag(
          'IT4010',
          p,
          ['cpu', 'spreadOptions', 'ratio'],
          'a spread ratio of 0 passes the preference webhook but divides by zero when a VM using it is admitted',
          {
            hint: 'use a ratio of at least 1 (the default is 2)',
          },
        ),
      );
    }
    if (spread && across === 'CoresThreads' && spreadRatio(p.spec) !== 2) {
      out.push(
        fieldDiag(
          'IT4004',
          p,
          typeof ratio === 'number' ? ['cpu', 'spreadOptions', 'ratio'] : ['cpu', 'spreadOptions', 'across'],
          'only a ratio of 2 (1 core 2 threads) is allowed when spreading vCPUs over cores and threads',
          {
            hint: 'set `spreadOptions.ratio: 2`, or spread across SocketsCores',
            // KubeVirt's preference webhook refuses this one itself (admission/index.ts keeps it an error).
            reason: 'webhook-coresthreads-ratio',
          },
        ),
      );
    }
    if (!spread && get(p.spec, ['cpu', 'spreadOptions']) !== undefined) {
      out.push(
        fieldDiag(
          'IT4004',
          p,
          ['cpu', 'spreadOptions'],
          `spreadOptions has no effect with preferredCPUTopology ${String(get(p.spec, ['cpu', 'preferredCPUTopology']) ?? 'sockets (the default)')}`,
          {
            severity: 'warning',
            hint: 'set `preferredCPUTopology: spread`, or drop spreadOptions',
          },
        ),
      );
    }
    return out;
  }),
  preferenceRule('secure-boot-architecture', 'UEFI Secure Boot where KubeVirt refuses it: s390x, and arm64 on the releases that still refuse it', (p, ctx) => {
    const arch = preferenceArchitecture(p) ?? ctx.catalog.defaultArchitecture;
    if (arch === 'amd64') return [];
    // arm64: a rule of some releases only (kubevirt/releases.ts), checked on every targeted release.
    let refusedBy = '';
    if (arch === 'arm64') {
      const range = targetRange(ctx.generator.targetKubevirt);
      const refusing = releasesBetween(range.min, range.max).filter((r) => holds('arm64SecureBoot', r));
      if (refusing.length === 0) return [];
      refusedBy = `refused by KubeVirt ${refusing.length === 1 ? refusing[0]! : `${refusing.slice(0, -1).join(', ')} and ${refusing[refusing.length - 1]!}`}: `;
    }
    const out: Diagnostic[] = [];
    if (get(p.spec, ['firmware', 'preferredEfi', 'secureBoot']) === true) {
      out.push(
        fieldDiag(
          'IT4017',
          p,
          ['firmware', 'preferredEfi', 'secureBoot'],
          `${refusedBy}UEFI secure boot is currently not supported on ${arch === 'arm64' ? 'aarch64' : arch} Arch`,
          {
            hint:
              arch === 'arm64'
                ? 'target only releases that start it (targetKubevirt: {min: v1.8.4}), or add Secure Boot for amd64 only (`architectureOverrides.amd64.include`)'
                : 'add Secure Boot for amd64 only, e.g. through `architectureOverrides.amd64.include`',
          },
        ),
      );
    }
    if (get(p.spec, ['firmware', 'preferredUseSecureBoot']) === true) {
      out.push(
        fieldDiag(
          'IT4017',
          p,
          ['firmware', 'preferredUseSecureBoot'],
          `${refusedBy}UEFI secure boot is currently not supported on ${arch === 'arm64' ? 'aarch64' : arch} Arch`,
        ),
      );
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
      ? [fieldDiag('IT4014', p, ['devices', 'preferredInputType'], 'Input device can have only tablet type.', { hint: 'use `tablet`' })]
      : [],
  ),
  preferenceRule('video-needs-graphics', 'a video type needs the graphics device', (p) =>
    get(p.spec, ['devices', 'preferredVideoType']) !== undefined && get(p.spec, ['devices', 'preferredAutoattachGraphicsDevice']) === false
      ? [fieldDiag('IT4014', p, ['devices', 'preferredVideoType'], 'Video configuration is not allowed when autoattachGraphicsDevice is set to false')]
      : [],
  ),
  preferenceRule('video-type-architecture', 'the video type exists on the architecture of the VM', (p, ctx) => {
    const t = get(p.spec, ['devices', 'preferredVideoType']);
    if (typeof t !== 'string') return [];
    const arch = preferenceArchitecture(p) ?? ctx.catalog.defaultArchitecture;
    const allowed = VIDEO_TYPES_BY_ARCHITECTURE[arch];
    return allowed.includes(t)
      ? []
      : [
          fieldDiag('IT4014', p, ['devices', 'preferredVideoType'], `video model '${t}' is not supported on ${arch} architecture`, {
            hint: `on ${arch}: ${allowed.join(', ')}`,
          }),
        ];
  }),
  preferenceRule('no-effect-devices', 'device preferences KubeVirt never applies in this combination', (p) => {
    const out: Diagnostic[] = [];
    if (get(p.spec, ['devices', 'preferredVirtualGPUOptions']) !== undefined) {
      out.push(
        fieldDiag('IT4014', p, ['devices', 'preferredVirtualGPUOptions'], 'preferredVirtualGPUOptions is declared by KubeVirt but never applied to a VM', {
          severity: 'warning',
          hint: 'set virtualGPUOptions on the GPU of the instance type instead',
        }),
      );
    }
    const bus = get(p.spec, ['devices', 'preferredDiskBus']);
    if (get(p.spec, ['devices', 'preferredDiskDedicatedIoThread']) === true && typeof bus === 'string' && bus !== 'virtio') {
      out.push(
        fieldDiag(
          'IT4014',
          p,
          ['devices', 'preferredDiskDedicatedIoThread'],
          `preferredDiskDedicatedIoThread has no effect with preferredDiskBus ${bus}: KubeVirt gives dedicated IOThreads only to virtio disks`,
          {
            severity: 'warning',
          },
        ),
      );
    }
    return out;
  }),
  preferenceRule('deprecated-preference-fields', 'fields KubeVirt deprecated', (p) =>
    DEPRECATED_FIELDS.filter((f) => f.specKind === 'preference' && get(p.spec, f.path.split('.')) !== undefined).map((f) =>
      fieldDiag('IT4015', p, f.path.split('.'), `${f.path} is deprecated since ${f.deprecatedIn}`, { severity: 'warning', hint: f.replacement }),
    ),
  ),
  preferenceRule('preference-memory-whole-bytes', 'required memory is a whole number of bytes', (p) => {
    const q = get(p.spec, ['requirements', 'memory', 'guest']);
    if ((typeof q !== 'string' && typeof q !== 'number') || parseQuantity(q) !== undefined) return [];
    return [
      fieldDiag('IT1205', p, ['requirements', 'memory', 'guest'], `${JSON.stringify(q)} ${bytesProblem(q)}`, {
        hint: typeof q === 'string' && /[0-9]m$/.test(q) ? `\`m\` means milli; did you mean \`${q.slice(0, -1)}Mi\`?` : 'use a binary suffix such as Mi or Gi',
      }),
    ];
  }),
];
