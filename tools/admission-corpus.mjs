// The VM admission corpus: single-field mutations of a sound VirtualMachine over the rule families
// of KubeVirt's VM admission and start (vms-admitter.go's ValidateVirtualMachineSpec, which runs
// vmi-create-admitter.go's ValidateVirtualMachineInstanceSpec on the template; the network and
// storage admitters; then the VMI webhooks and the launch render), each family with values KubeVirt
// refuses and boundary values it accepts, on two kinds of VM (with an instance type and preference
// of the bundle, or sized by hand) and a few cluster configurations. Made with a fixed seed and
// answered by the `preview` mode of itgen-oracle, built outside this repository and named by the
// ORACLE variable (never part of the product or its tests):
//   node tools/admission-corpus.mjs gen DIR --bundle <bundle line> --seed 11 --count 3000   writes DIR/cases.jsonl
//   ORACLE=... node tools/admission-corpus.mjs answer DIR                                   writes DIR/answers.jsonl
// test/admission-corpus.test.ts replays DIR (committed gzipped under test/fixtures/admission-corpus/).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { answerWithKubevirtOracle, corpusCommandLine, seeded } from './corpus-kit.mjs';

const { mode, dir, opt } = corpusCommandLine();

/** A template spec edit: `[family, description, (spec, vm) => void]`; the family names the KubeVirt rule. */
const set = (obj, keys, v) => {
  let o = obj;
  for (const k of keys.slice(0, -1)) o = o[k] ??= {};
  o[keys[keys.length - 1]] = v;
};
const D = ['domain'];
const R = [...D, 'resources'];

function mutations() {
  const m = [];
  const each = (family, values, apply) => values.forEach((v) => m.push([family, JSON.stringify(v), (spec, vm) => apply(spec, v, vm)]));
  each('memory-requests', ['8', '999999', '1M', '1000k', '1Mi', '0', '-1Gi', '1e6', '1.5Gi', '64Mi', '2Gi', '999k'], (s, v) =>
    set(s, [...R, 'requests', 'memory'], v),
  );
  each('memory-limits', ['-1', '0', '512Mi', '8Gi', '1M'], (s, v) => set(s, [...R, 'limits', 'memory'], v));
  each(
    'memory-requests-limits',
    [
      ['2Gi', '1Gi'],
      ['1Gi', '1Gi'],
      ['1Gi', '2Gi'],
      ['64Mi', '32Mi'],
    ],
    (s, [r, l]) => {
      set(s, [...R, 'requests', 'memory'], r);
      set(s, [...R, 'limits', 'memory'], l);
    },
  );
  each('cpu-requests', ['-1', '0', '100m', '2', '-500m'], (s, v) => set(s, [...R, 'requests', 'cpu'], v));
  each('cpu-limits', ['-2', '1', '50m', '0'], (s, v) => set(s, [...R, 'limits', 'cpu'], v));
  each(
    'cpu-requests-limits',
    [
      ['2', '1'],
      ['500m', '1'],
      ['1', '1'],
      ['-1', '-2'],
    ],
    (s, [r, l]) => {
      set(s, [...R, 'requests', 'cpu'], r);
      set(s, [...R, 'limits', 'cpu'], l);
    },
  );
  each('hostname', ['Bad_Host', 'good-host', 'a'.repeat(63), 'a'.repeat(64), 'x.y', '-x', 'x-'], (s, v) => (s.hostname = v));
  each('subdomain', ['Bad_Sub', 'good.sub', 'a'.repeat(253), 'a'.repeat(254), 'x..y', 'sub'], (s, v) => (s.subdomain = v));
  each(
    'hugepages',
    [
      ['2Mi', '1Gi'],
      ['1Gi', '1Gi'],
      ['1Gi', '512Mi'],
      ['3Mi', '1Gi'],
      ['2Mi', '1025Mi'],
      ['bad', '1Gi'],
    ],
    (s, [page, mem]) => {
      set(s, [...D, 'memory', 'hugepages', 'pageSize'], page);
      set(s, [...R, 'requests', 'memory'], mem);
    },
  );
  each(
    'guest-limit',
    [
      ['1Gi', '512Mi'],
      ['1Gi', '2Gi'],
      ['1500Mi', '1Gi'],
    ],
    (s, [guest, lim]) => {
      set(s, [...D, 'memory', 'guest'], guest);
      set(s, [...R, 'limits', 'memory'], lim);
    },
  );
  each('start-strategy', ['Paused', 'Running', 'paused'], (s, v) => (s.startStrategy = v));
  each('start-strategy-probe', ['Paused'], (s, v) => {
    s.startStrategy = v;
    s.livenessProbe = { tcpSocket: { port: 22 }, initialDelaySeconds: 10 };
  });
  each(
    'input-devices',
    [
      { name: 'tablet', type: 'tablet', bus: 'usb' },
      { name: 'tablet', type: 'tablet', bus: 'virtio' },
      { name: 'tablet', type: 'tablet' },
      { name: 'mouse', type: 'mouse', bus: 'usb' },
      { name: 'kbd', type: 'tablet', bus: 'ps2' },
      { name: 'kbd', type: 'keyboard', bus: 'ps2' },
    ],
    (s, v) => set(s, [...D, 'devices', 'inputs'], [v]),
  );
  each(
    'sound',
    [{ name: 'audio' }, { name: 'audio', model: 'ich9' }, { name: 'audio', model: 'ac97' }, { name: 'audio', model: 'sb16' }, { model: 'ich9' }, {}],
    (s, v) => set(s, [...D, 'devices', 'sound'], v),
  );
  each('machine-type', ['q35', 'pc-q35-rhel9.4.0', 'pc-i440fx-2.12', 'virt', 'q35-custom'], (s, v) => set(s, [...D, 'machine', 'type'], v));
  each(
    'cpu-hotplug',
    [
      [2, 4],
      [4, 4],
      [5, 4],
      [1, 0],
    ],
    (s, [sockets, max], vm) => {
      if (vm.spec.instancetype) return;
      set(s, [...D, 'cpu', 'sockets'], sockets);
      set(s, [...D, 'cpu', 'maxSockets'], max);
    },
  );
  each('disk-without-volume', ['ghost', 'rootdisk'], (s, v) => set(s, [...D, 'devices', 'disks'], [{ name: v, disk: { bus: 'virtio' } }]));
  each(
    'boot-order',
    [
      [1, 1],
      [1, 2],
      [2, 2],
    ],
    (s, [a, b]) => {
      s.volumes = [...s.volumes, { name: 'data', emptyDisk: { capacity: '1Gi' } }];
      set(
        s,
        [...D, 'devices', 'disks'],
        [
          { name: 'rootdisk', bootOrder: a, disk: { bus: 'virtio' } },
          { name: 'data', bootOrder: b, disk: { bus: 'virtio' } },
        ],
      );
    },
  );
  each('interface-boot-order', [0, 1, 3], (s, v) => {
    set(s, [...D, 'devices', 'interfaces'], [{ name: 'default', masquerade: {}, bootOrder: v }]);
    s.networks = [{ name: 'default', pod: {} }];
  });
  each('host-devices-gate', [[{ name: 'hd', deviceName: 'example.com/dev' }]], (s, v) => set(s, [...D, 'devices', 'hostDevices'], v));
  each(
    'video',
    [
      [{ type: 'vga' }, false],
      [{ type: 'virtio' }, true],
      [{ type: 'virtio' }, false],
    ],
    (s, [video, attach]) => {
      set(s, [...D, 'devices', 'video'], video);
      set(s, [...D, 'devices', 'autoattachGraphicsDevice'], attach);
    },
  );
  // Families itgen does not model yet: kept in the corpus so its replay measures the gap honestly.
  each('interface-model', ['virtio', 'e1000', 'e1000e', 'rtl8139', 'bogus'], (s, v) => {
    set(s, [...D, 'devices', 'interfaces'], [{ name: 'default', masquerade: {}, model: v }]);
    s.networks = [{ name: 'default', pod: {} }];
  });
  each('interface-without-network', ['default', 'other'], (s, v) => {
    set(s, [...D, 'devices', 'interfaces'], [{ name: v, masquerade: {} }]);
    s.networks = [{ name: 'default', pod: {} }];
  });
  each('firmware-serial', ['short', 'x'.repeat(40)], (s, v) => set(s, [...D, 'firmware', 'serial'], v));
  each('hyperv-spinlocks', [100, 4096, 8191], (s, v) => set(s, [...D, 'features', 'hyperv', 'spinlocks'], { spinlocks: v }));
  each('termination-grace', [-1, 0, 30], (s, v) => (s.terminationGracePeriodSeconds = v));
  each('dns-policy', ['None', 'ClusterFirst', 'Bogus'], (s, v) => (s.dnsPolicy = v));
  each('io-threads-policy', ['shared', 'auto', 'bogus'], (s, v) => set(s, [...D, 'ioThreadsPolicy'], v));
  each(
    'watchdog',
    [
      { name: 'w', i6300esb: { action: 'reset' } },
      { name: 'w', i6300esb: { action: 'bogus' } },
    ],
    (s, v) => set(s, [...D, 'devices', 'watchdog'], v),
  );
  // validateCpuPinning, validateNUMA, validateCPUIsolatorThread, validateCPUFeaturePolicies, validateRealtime.
  const cpuCase = (s, v) => {
    set(s, [...D, 'cpu'], v.cpu);
    for (const [k, x] of Object.entries(v.req ?? {})) set(s, [...R, 'requests', k], x);
    for (const [k, x] of Object.entries(v.lim ?? {})) set(s, [...R, 'limits', k], x);
    if (v.hugepages) set(s, [...D, 'memory', 'hugepages'], { pageSize: '2Mi' });
    if (v.arch) s.architecture = v.arch;
  };
  const dedicated = { dedicatedCpuPlacement: true };
  each(
    'cpu-pinning',
    [
      { cpu: dedicated },
      { cpu: { ...dedicated, cores: 2 } },
      { cpu: { ...dedicated, cores: 2, threads: 3 } },
      { cpu: { ...dedicated, cores: 1, threads: 2 } },
      { cpu: dedicated, req: { cpu: '1500m' } },
      { cpu: dedicated, lim: { cpu: '2500m' } },
      { cpu: dedicated, req: { cpu: '2' }, lim: { cpu: '3' } },
      { cpu: dedicated, req: { cpu: '2' }, lim: { cpu: '2' } },
      { cpu: { ...dedicated, cores: 4 }, req: { cpu: '2' } },
      { cpu: { ...dedicated, cores: 2 }, req: { cpu: '2' }, lim: { cpu: '2' } },
      { cpu: { ...dedicated, cores: 2 }, req: { memory: '1Gi' }, lim: { memory: '2Gi' } },
      { cpu: { ...dedicated, cores: 2 }, req: { memory: '2Gi' }, lim: { memory: '2Gi' } },
      { cpu: { ...dedicated, cores: 1, threads: 2 }, arch: 'arm64' },
      { cpu: { ...dedicated, sockets: 2, threads: 2 } },
    ],
    cpuCase,
  );
  each(
    'numa',
    [
      { cpu: { numa: { guestMappingPassthrough: {} } } },
      { cpu: { ...dedicated, cores: 2, numa: { guestMappingPassthrough: {} } } },
      { cpu: { cores: 2, numa: { guestMappingPassthrough: {} } }, hugepages: true },
      { cpu: { ...dedicated, cores: 2, numa: { guestMappingPassthrough: {} } }, hugepages: true },
      { cpu: { cores: 2, numa: {} } },
    ],
    cpuCase,
  );
  each(
    'isolate-emulator-thread',
    [{ cpu: { isolateEmulatorThread: true } }, { cpu: { ...dedicated, cores: 2, isolateEmulatorThread: true } }, { cpu: { isolateEmulatorThread: false } }],
    cpuCase,
  );
  each(
    'cpu-feature-policy',
    ['require', 'bogus', '', 'forbid', 'Require'].map((policy) => ({ cpu: { features: [{ name: 'vmx', policy }] } })),
    cpuCase,
  );
  each(
    'realtime',
    [
      { cpu: { realtime: {} } },
      { cpu: { ...dedicated, cores: 2, realtime: {} } },
      { cpu: { ...dedicated, cores: 2, realtime: { mask: '0' }, numa: { guestMappingPassthrough: {} } }, hugepages: true },
      { cpu: { realtime: {}, numa: { guestMappingPassthrough: {} } }, hugepages: true },
    ],
    cpuCase,
  );
  // ValidateDisks (pkg/storage/admitters/disks.go) through validateDomainSpec, and Secure Boot without SMM.
  const root = (extra) => ({ name: 'rootdisk', ...extra });
  each(
    'disks',
    [
      [root({ disk: { bus: 'virtio' } }), root({ disk: { bus: 'virtio' } })],
      [root({ disk: {}, cdrom: {} })],
      [root({ disk: { bus: 'sata', pciAddress: '0000:00:07.0' } })],
      [root({ disk: { bus: 'virtio', pciAddress: '00:07.0' } })],
      [root({ disk: { bus: 'virtio', pciAddress: '0000:00:07.0' } })],
      [root({ disk: { bus: 'virtio' }, bootOrder: 0 })],
      [root({ disk: { bus: 'ide' } })],
      [root({ cdrom: { bus: 'virtio' } })],
      [root({ cdrom: { bus: 'sata' } })],
      [root({ disk: { bus: 'sata', readOnly: true } })],
      [root({ disk: { bus: 'floppy' } })],
      [root({ disk: { bus: 'scsi' } })],
      [root({ disk: { bus: 'usb' } })],
      [root({ disk: { bus: 'sata' }, dedicatedIOThread: true })],
      [root({ disk: { bus: 'virtio' }, dedicatedIOThread: true })],
      [root({ disk: { bus: 'virtio' }, serial: 'abc$' })],
      [root({ disk: { bus: 'virtio' }, serial: 'ABC-1.x_y+z' })],
      [root({ disk: { bus: 'virtio' }, serial: 'x'.repeat(257) })],
      [root({ disk: { bus: 'virtio' }, cache: 'unsafe' })],
      [root({ disk: { bus: 'virtio' }, cache: 'writeback' })],
      [root({ disk: { bus: 'virtio' }, io: 'default' })],
      [root({ disk: { bus: 'virtio' }, io: 'native' })],
      [root({ disk: { bus: 'virtio' }, errorPolicy: 'bogus' })],
      [root({ disk: { bus: 'virtio' }, errorPolicy: 'report' })],
      [root({ disk: { bus: 'virtio' }, blockSize: { custom: { logical: 4096, physical: 512 } } })],
      [root({ disk: { bus: 'virtio' }, blockSize: { custom: { logical: 512, physical: 4096 } } })],
      [root({ disk: { bus: 'virtio' }, blockSize: { custom: { logical: 300, physical: 300 } } })],
      [root({ disk: { bus: 'virtio' }, blockSize: { custom: { logical: 4194304, physical: 4194304 } } })],
      [root({ disk: { bus: 'sata' }, blockSize: { custom: { logical: 4096, physical: 4096 } } })],
      [root({ disk: { bus: 'virtio' }, blockSize: { custom: { logical: 512, physical: 512 }, matchVolume: {} } })],
      [root({ disk: { bus: 'virtio' }, blockSize: { custom: { logical: 512, physical: 512, discardGranularity: 1000 } } })],
    ],
    (s, v) => set(s, [...D, 'devices', 'disks'], v),
  );
  each('disk-name', ['Root_Disk', 'a'.repeat(64), 'data.disk'], (s, v) => {
    set(s, [...D, 'devices', 'disks'], [{ name: v, disk: { bus: 'virtio' } }]);
    s.volumes = [{ name: v, containerDisk: { image: 'quay.io/containerdisks/fedora:41' } }];
  });
  each(
    'secure-boot-smm',
    [
      [{ secureBoot: true }, undefined],
      [{}, undefined],
      [{ secureBoot: true }, {}],
      [{ secureBoot: true }, { enabled: false }],
      [{ secureBoot: false }, undefined],
    ],
    (s, [efi, smm]) => {
      set(s, [...D, 'firmware', 'bootloader', 'efi'], efi);
      if (smm !== undefined) set(s, [...D, 'features', 'smm'], smm);
    },
  );
  // validateVolumes: names, sources, cloud-init data, the DownwardMetrics and HostDisk gates, host disks, references.
  const image = { image: 'quay.io/containerdisks/fedora:41' };
  each(
    'volumes',
    [
      [
        { name: 'rootdisk', containerDisk: image },
        { name: 'rootdisk', emptyDisk: { capacity: '1Gi' } },
      ],
      [{ name: 'rootdisk', containerDisk: image, emptyDisk: { capacity: '1Gi' } }],
      [{ name: 'rootdisk' }],
      [
        { name: 'rootdisk', containerDisk: image },
        { name: 'dv', dataVolume: { name: '' } },
      ],
      [
        { name: 'rootdisk', containerDisk: image },
        { name: 'dm', downwardMetrics: {} },
      ],
      [
        { name: 'rootdisk', containerDisk: image },
        { name: 'dm', downwardMetrics: {} },
        { name: 'dm2', downwardMetrics: {} },
      ],
      [
        { name: 'rootdisk', containerDisk: image },
        { name: 'hd', hostDisk: { path: '/data/disk.img', type: 'DiskOrCreate', capacity: '1Gi' } },
      ],
      [
        { name: 'rootdisk', containerDisk: image },
        { name: 'hd', hostDisk: { path: '', type: 'Disk' } },
      ],
      [
        { name: 'rootdisk', containerDisk: image },
        { name: 'hd', hostDisk: { path: '/x', type: 'Bogus' } },
      ],
      [
        { name: 'rootdisk', containerDisk: image },
        { name: 'hd', hostDisk: { path: '/x', type: 'Disk', capacity: '1Gi' } },
      ],
      [
        { name: 'rootdisk', containerDisk: image },
        { name: 'cm', configMap: {} },
      ],
      [
        { name: 'rootdisk', containerDisk: image },
        { name: 'cm', configMap: { name: 'app-config' } },
      ],
      [
        { name: 'rootdisk', containerDisk: image },
        { name: 's', secret: { secretName: '' } },
      ],
      [
        { name: 'rootdisk', containerDisk: image },
        { name: 'sa', serviceAccount: {} },
      ],
      [
        { name: 'rootdisk', containerDisk: image },
        { name: 'sa', serviceAccount: { serviceAccountName: 'a' } },
        { name: 'sb', serviceAccount: { serviceAccountName: 'b' } },
      ],
    ],
    (s, v) => {
      s.volumes = v;
    },
  );
  each(
    'cloud-init',
    [
      { cloudInitNoCloud: {} },
      { cloudInitNoCloud: { userData: '#cloud-config' } },
      { cloudInitNoCloud: { userData: '#cloud-config', userDataBase64: 'eA==' } },
      { cloudInitNoCloud: { userDataBase64: 'not base64!' } },
      { cloudInitNoCloud: { userDataBase64: 'I2Nsb3VkLWNvbmZpZw==' } },
      { cloudInitNoCloud: { userData: 'x'.repeat(2049) } },
      { cloudInitNoCloud: { userData: 'x'.repeat(2048) } },
      { cloudInitNoCloud: { networkData: 'x'.repeat(2049) } },
      { cloudInitNoCloud: { networkData: 'version: 2', networkDataSecretRef: { name: 'net' } } },
      { cloudInitConfigDrive: { userData: '#cloud-config' } },
      { cloudInitConfigDrive: { networkDataBase64: 'eA' } },
      { cloudInitConfigDrive: { secretRef: { name: 'ud' } } },
      { cloudInitNoCloud: { secretRef: { name: 'ud' }, userData: '#cloud-config' } },
      // Go's name for the field, not its JSON one: KubeVirt's lenient decoding drops it.
      { cloudInitConfigDrive: { userDataSecretRef: { name: 'ud' } } },
    ],
    (s, v) => {
      s.volumes = [...s.volumes, { name: 'cloudinit', ...v }];
    },
  );
  // validateProbe and the pod network, the DownwardMetrics device, panic devices, the reboot policy, the service account name.
  each(
    'probes',
    [
      [{ tcpSocket: { port: 22 } }, true],
      [{ tcpSocket: { port: 22 } }, false],
      [{ httpGet: { port: 80 }, exec: { command: ['true'] } }, true],
      [{ initialDelaySeconds: 5 }, true],
      [{ guestAgentPing: {} }, false],
      [{ exec: { command: ['true'] } }, false],
    ],
    (s, [probe, podNetwork]) => {
      s.readinessProbe = probe;
      if (!podNetwork) {
        s.networks = [{ name: 'ext', multus: { networkName: 'ext' } }];
        set(s, [...D, 'devices', 'interfaces'], [{ name: 'ext', bridge: {} }]);
      }
    },
  );
  each('downward-metrics-device', [{}], (s, v) => set(s, [...D, 'devices', 'downwardMetrics'], v));
  each('panic-devices', [[{ model: 'pvpanic' }], [{ model: 'bogus' }], [{}], [{ model: 'isa' }, { model: 'hyperv' }]], (s, v) =>
    set(s, [...D, 'devices', 'panicDevices'], v),
  );
  each('reboot-policy', ['Terminate', 'Reboot'], (s, v) => set(s, [...D, 'rebootPolicy'], v));
  each(
    'service-account',
    [
      ['robot', null],
      ['Robot_1', null],
      ['robot', 'other'],
      ['robot', 'robot'],
    ],
    (s, [name, volume]) => {
      s.serviceAccountName = name;
      if (volume) s.volumes = [...s.volumes, { name: 'sa', serviceAccount: { serviceAccountName: volume } }];
    },
  );
  // validateLaunchSecurity (with the amd64 rules), validateVSOCK, the container disk's path.
  const efiOff = { bootloader: { efi: { secureBoot: false } } };
  each(
    'launch-security',
    [
      { ls: { sev: {} }, firmware: efiOff, arch: 'amd64' },
      { ls: { sev: {} }, arch: 'amd64' },
      { ls: { sev: {} }, firmware: { bootloader: { efi: {} } }, arch: 'amd64' },
      { ls: { sev: {}, snp: {} }, firmware: efiOff, arch: 'amd64' },
      { ls: { snp: {} }, firmware: { bootloader: { efi: { secureBoot: false, persistent: true } } }, arch: 'amd64' },
      { ls: { tdx: {} }, firmware: efiOff, arch: 'amd64' },
      { ls: { sev: { attestation: {} } }, firmware: efiOff, arch: 'amd64' },
      { ls: { sev: {} }, firmware: efiOff, arch: 'arm64' },
      { ls: { sev: {} }, firmware: efiOff },
      { ls: { sev: {} }, firmware: efiOff, arch: 'amd64', nicBoot: true },
    ],
    (s, v) => {
      set(s, [...D, 'launchSecurity'], v.ls);
      if (v.firmware) set(s, [...D, 'firmware'], v.firmware);
      if (v.arch) s.architecture = v.arch;
      if (v.nicBoot) {
        set(s, [...D, 'devices', 'interfaces'], [{ name: 'default', masquerade: {}, bootOrder: 2 }]);
        s.networks = [{ name: 'default', pod: {} }];
      }
    },
  );
  each('vsock', [true, false], (s, v) => set(s, [...D, 'devices', 'autoattachVSOCK'], v));
  each('container-disk-path', ['/', '/disk/img.qcow2', 'disk/img', '/disk/../img', '/disk/', '/disk//img'], (s, v) => {
    s.volumes = [{ name: 'rootdisk', containerDisk: { ...image, path: v } }];
  });
  // validateAccessCredentials.
  const secret = { secret: { secretName: 'keys' } };
  each(
    'access-credentials',
    [
      [{ sshPublicKey: { source: secret, propagationMethod: { noCloud: {} } } }, 'noCloud'],
      [{ sshPublicKey: { source: secret, propagationMethod: { noCloud: {} } } }, null],
      [{ sshPublicKey: { source: secret, propagationMethod: { configDrive: {} } } }, null],
      [{ sshPublicKey: { source: secret, propagationMethod: { qemuGuestAgent: { users: [] } } } }, null],
      [{ sshPublicKey: { source: secret, propagationMethod: { qemuGuestAgent: { users: ['fedora'] } } } }, null],
      [{ sshPublicKey: { source: {}, propagationMethod: { noCloud: {}, qemuGuestAgent: { users: ['a'] } } } }, 'noCloud'],
      [{ userPassword: { source: secret, propagationMethod: { qemuGuestAgent: {} } } }, null],
      [{ userPassword: { source: {}, propagationMethod: {} } }, null],
      [
        { sshPublicKey: { source: secret, propagationMethod: { noCloud: {} } }, userPassword: { source: secret, propagationMethod: { qemuGuestAgent: {} } } },
        'noCloud',
      ],
      [{}, null],
    ],
    (s, [cred, volume]) => {
      s.accessCredentials = [cred];
      if (volume === 'noCloud') s.volumes = [...s.volumes, { name: 'cloudinit', cloudInitNoCloud: { userData: '#cloud-config' } }];
    },
  );
  // validateFirmwareACPI: the tables name Secret volumes.
  const slic = { name: 'slic', secret: { secretName: 'slic' } };
  each(
    'firmware-acpi',
    [
      [{}, []],
      [{ slicNameRef: 'missing' }, []],
      [{ slicNameRef: 'slic' }, [slic]],
      [{ msdmNameRef: 'rootdisk' }, []],
      [{ slicNameRef: 'slic', msdmNameRef: 'missing' }, [slic]],
      [{ slicNameRef: 'cfg' }, [{ name: 'cfg', configMap: { name: 'cfg' } }]],
    ],
    (s, [acpi, volumes]) => {
      set(s, [...D, 'firmware', 'acpi'], acpi);
      s.volumes = [...s.volumes, ...volumes];
    },
  );
  // validateMDEVRamFB: one ramfb display at most.
  const gpu = (name, display) => ({ name, deviceName: 'nvidia.com/GRID_T4-1Q', ...(display ? { virtualGPUOptions: { display } } : {}) });
  each(
    'mdev-ramfb',
    [
      [gpu('g1', {}), gpu('g2', {})],
      [gpu('g1', {}), gpu('g2', { ramFB: { enabled: false } })],
      [gpu('g1', { enabled: false }), gpu('g2', {})],
      [gpu('g1', { ramFB: { enabled: true } }), gpu('g2', { enabled: true })],
      [gpu('g1', null), gpu('g2', {})],
    ],
    (s, gpus) => set(s, [...D, 'devices', 'gpus'], gpus),
  );
  // validatePersistentReservation, validateFilesystemsWithVirtIOFSEnabled, validateReservedOverheadMemlock.
  const pvc = { name: 'data', persistentVolumeClaim: { claimName: 'data' } };
  each('persistent-reservation', [true, false], (s, reservation) => {
    set(s, [...D, 'devices', 'disks'], [{ name: 'data', lun: { reservation } }]);
    s.volumes = [...s.volumes, pvc];
  });
  each(
    'filesystems',
    [
      [{ name: 'data', virtiofs: {} }, pvc],
      [
        { name: 'cfg', virtiofs: {} },
        { name: 'cfg', configMap: { name: 'cfg' } },
      ],
      [
        { name: 'dv', virtiofs: {} },
        { name: 'dv', dataVolume: { name: 'dv' } },
      ],
    ],
    (s, [fs, volume]) => {
      set(s, [...D, 'devices', 'filesystems'], [fs]);
      s.volumes = [...s.volumes, volume];
    },
  );
  // validateSpecAffinity and validateSpecTopologySpreadConstraints (Kubernetes' rules, KubeVirt's copy).
  const term = (matchExpressions) => ({ matchExpressions });
  each(
    'affinity',
    [
      { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } },
      { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term([{ key: 'zone', operator: 'In' }])] } } },
      { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term([{ key: 'zone', operator: 'In', values: ['a'] }])] } } },
      { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term([{ key: 'zone', operator: 'Exists', values: ['a'] }])] } } },
      {
        nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term([{ key: 'cpus', operator: 'Gt', values: ['1', '2'] }])] } },
      },
      { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term([{ key: 'bad key!', operator: 'Exists' }])] } } },
      { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term([{ key: 'a/b/c', operator: 'Exists' }])] } } },
      { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term([{ key: 'Example.COM/zone', operator: 'Exists' }])] } } },
      { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term([{ key: 'zone', operator: 'Near', values: ['a'] }])] } } },
      {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node_1'] }] }],
          },
        },
      },
      {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.uid', operator: 'Exists' }] }] },
        },
      },
      { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: term([{ key: 'zone', operator: 'Exists' }]) }] } },
      { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 101, preference: term([{ key: 'zone', operator: 'Exists' }]) }] } },
      { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 50, preference: term([{ key: 'zone', operator: 'Exists' }]) }] } },
      { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'db' } } }] } },
      { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'zone' }] } },
      {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { 'bad key': 'x y' } }, topologyKey: 'kubernetes.io/hostname' }],
        },
      },
      {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 200, podAffinityTerm: { labelSelector: { matchExpressions: [{ key: 'app', operator: 'In' }] }, topologyKey: 'zone' } },
          ],
        },
      },
      {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: {}, namespaces: ['Team_A', 'ok'], topologyKey: 'zone' }],
        },
      },
      {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'Exists', values: ['x'] }] }, topologyKey: 'zone' },
          ],
        },
      },
    ],
    (s, v) => (s.affinity = v),
  );
  each(
    'topology-spread',
    [
      [{ maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }],
      [{ maxSkew: 1, topologyKey: '', whenUnsatisfiable: 'DoNotSchedule' }],
      [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'Sometimes' }],
      [{ maxSkew: 1, topologyKey: 'bad key', whenUnsatisfiable: 'ScheduleAnyway' }],
      [
        { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' },
        { maxSkew: 2, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' },
      ],
      [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchExpressions: [{ key: 'app', operator: 'Within' }] } }],
      [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'web' } } }],
    ],
    (s, v) => (s.topologySpreadConstraints = v),
  );
  // validateFirmware: EFI and BIOS together; the kernel boot's container and its paths.
  const kernel = (container, kernelArgs) => ({ ...(container ? { container } : {}), ...(kernelArgs ? { kernelArgs } : {}) });
  each(
    'firmware',
    [
      { bootloader: { efi: { secureBoot: false }, bios: {} } },
      { kernelBoot: kernel(null, 'console=ttyS0') },
      { kernelBoot: kernel({ image: 'quay.io/containerdisks/kernel:1' }) },
      { kernelBoot: kernel({ image: 'quay.io/containerdisks/kernel:1', kernelPath: 'boot/vmlinuz' }) },
      { kernelBoot: kernel({ image: 'quay.io/containerdisks/kernel:1', kernelPath: '/boot/vmlinuz', initrdPath: '/' }) },
      { kernelBoot: kernel({ image: 'quay.io/containerdisks/kernel:1', kernelPath: '/boot/../boot/vmlinuz' }) },
      { kernelBoot: kernel({ image: 'quay.io/containerdisks/kernel:1', kernelPath: '/boot/vmlinuz', initrdPath: '/boot/initrd' }, 'console=ttyS0') },
    ],
    (s, v) => set(s, [...D, 'firmware'], v),
  );
  each('reserved-overhead', [{}, { addedOverhead: '100Mi', memLock: 'Required' }, { memLock: 'NotRequired' }], (s, v) =>
    set(s, [...D, 'memory', 'reservedOverhead'], v),
  );
  networkFamilies(each);
  draFamilies(each);
  vmFamilies(each);
  graceFamilies(each);
  judgeFamilies(each);
  return m;
}

/**
 * The network admitter's families (pkg/network/admitter): each value sets the template's interfaces
 * and networks whole; a value may name the cluster configuration it needs (`configuration`).
 */
function networkFamilies(each) {
  const pod = { name: 'default', pod: {} };
  const ext = { name: 'ext', multus: { networkName: 'ext' } };
  const nets = (s, interfaces, networks) => {
    set(s, [...D, 'devices', 'interfaces'], interfaces);
    s.networks = networks;
  };
  const masq = (extra) => ({ name: 'default', masquerade: {}, ...extra });
  const gates = (...featureGates) => ({ configuration: { developerConfiguration: { featureGates } } });
  each(
    'network-mac',
    [
      '02:00:00:00:00:01',
      '02:00:00:00:00:00',
      '02-00-00-00-00-01',
      '0200.0000.0001',
      '02:00:00:00:00:00:00:01',
      '02:00:00:00:00:0g',
      'bogus',
      '02:00:00:00:00',
      '02:00-00:00:00:01',
      'AA:BB:CC:DD:EE:FF',
      '0200.0000.0000.0001',
      '02:00:00:00:00:01:',
    ].flatMap((mac) => [
      [mac, 'masquerade'],
      [mac, 'bridge'],
    ]),
    (s, [macAddress, binding]) => nets(s, [{ name: 'default', [binding]: {}, macAddress }], [pod]),
  );
  each('network-pci', ['0000:81:01.0', '0000:81:01.7', '0000:81:01.8', '81:01.0', 'zzzz:00:00.0', '0000:0a:1F.3', '0000:81:01.0 '], (s, pciAddress) =>
    nets(s, [masq({ pciAddress })], [pod]),
  );
  each(
    'network-ports',
    [
      [[{ port: 80 }], true],
      [[{ port: 0 }], true],
      [[{ port: -1 }], true],
      [[{ port: 65535 }], true],
      [[{ port: 65536 }], true],
      [[{ port: 65537 }], true],
      [[{ port: 80, protocol: 'tcp' }], true],
      [[{ port: 80, protocol: 'SCTP' }], true],
      [[{ port: 80, protocol: 'UDP' }], true],
      [
        [
          { name: 'http', port: 80 },
          { name: 'http', port: 81 },
        ],
        true,
      ],
      [[{ name: 'HTTP', port: 80 }], true],
      [[{ name: '1234', port: 80 }], true],
      [[{ name: 'a--b', port: 80 }], true],
      [[{ name: '-ab', port: 80 }], true],
      [[{ name: 'abcdefghijklmnop', port: 80 }], true],
      [[{ name: 'web-1', port: 8080 }], true],
      [[], true],
      [[{ port: 0 }], false],
    ],
    (s, [ports, onPod]) => (onPod ? nets(s, [masq({ ports })], [pod]) : nets(s, [{ name: 'ext', bridge: {}, ports }], [ext])),
  );
  const range = (protocol, start, end) => ({ protocol, start, end });
  each(
    'network-port-ranges',
    [
      [[range('TCP', 1000, 2000)], false, 'masquerade'],
      [[range('TCP', 1000, 2000)], true, 'masquerade'],
      [[range('SCTP', 1000, 2000)], true, 'masquerade'],
      [[range('TCP', 0, 2000)], true, 'masquerade'],
      [[range('UDP', 1000, 70000)], true, 'masquerade'],
      [[range('TCP', 3000, 2000)], true, 'masquerade'],
      [[range('TCP', 1000, 2000), range('TCP', 1500, 2500), range('UDP', 1000, 2000)], true, 'masquerade'],
      [[range('TCP', 1000, 2000), range('TCP', 2000, 2500)], true, 'masquerade'],
      [Array.from({ length: 11 }, (_, k) => range('TCP', 1000 + k * 10, 1005 + k * 10)), true, 'masquerade'],
      [[range('TCP', 1000, 2000)], true, 'bridge'],
      [[range('TCP', 1000, 2000)], true, 'ports'],
    ],
    (s, [portRanges, gate, binding]) => {
      nets(s, [binding === 'ports' ? masq({ portRanges, ports: [{ port: 80 }] }) : { name: 'default', [binding]: {}, portRanges }], [pod]);
      return gate ? gates('PortRangesSpec') : undefined;
    },
  );
  each(
    'network-dhcp',
    [
      {
        privateOptions: [
          { option: 240, value: 'x' },
          { option: 240, value: 'y' },
        ],
      },
      { privateOptions: [{ option: 100, value: 'x' }] },
      {
        privateOptions: [
          { option: 224, value: 'a' },
          { option: 254, value: 'b' },
        ],
      },
      {
        privateOptions: [
          { option: 223, value: 'a' },
          { option: 255, value: 'b' },
        ],
      },
      { ntpServers: ['1.2.3.4'] },
      { ntpServers: ['1.2.3.256'] },
      { ntpServers: ['::ffff:1.2.3.4'] },
      { ntpServers: ['2001:db8::1'] },
      { ntpServers: ['01.2.3.4'] },
      { ntpServers: ['pool.ntp.org', '10.0.0.1'] },
      { bootFileName: 'pxelinux.0', tftpServerName: 'tftp' },
    ],
    (s, dhcpOptions) => nets(s, [{ name: 'default', bridge: {}, dhcpOptions }], [pod]),
  );
  each(
    'network-state',
    ['', 'up', 'down', 'absent', 'Up', 'bogus'].flatMap((state) => [
      [state, 'bridge', 'ext'],
      [state, 'masquerade', 'default'],
      [state, 'sriov', 'ext'],
      [state, 'bridge', 'default'],
    ]),
    (s, [state, binding, network]) => nets(s, [{ name: network, [binding]: {}, ...(state ? { state } : {}) }], [network === 'ext' ? ext : pod]),
  );
  each(
    'network-binding',
    [
      [{}, 'default'],
      [{ bridge: {}, masquerade: {} }, 'default'],
      [{ masquerade: {}, binding: { name: 'passt' } }, 'default'],
      [{ binding: { name: 'passt' } }, 'default'],
      [{ passtBinding: {} }, 'default'],
      [{ passtBinding: {} }, 'ext'],
      [{ slirp: {} }, 'default'],
      [{ passt: {} }, 'default'],
      [{ macvtap: {} }, 'ext'],
      [{ macvtap: {} }, 'default'],
      [{ sriov: {} }, 'default'],
      [{ masquerade: {} }, 'ext'],
      [{ bridge: {} }, 'default', { network: { permitBridgeInterfaceOnPodNetwork: false } }],
      [{ bridge: {} }, 'default', { network: { permitBridgeInterfaceOnPodNetwork: true } }],
      [{ passtBinding: {} }, 'default', { developerConfiguration: { featureGates: ['PasstBinding'] } }],
    ],
    (s, [binding, network, configuration]) => {
      nets(s, [{ name: network, ...binding }], [network === 'ext' ? ext : pod]);
      return configuration ? { configuration } : undefined;
    },
  );
  each(
    'network-sources',
    [
      [
        [masq(), { name: 'second', masquerade: {} }],
        [pod, { name: 'second', pod: {} }],
      ],
      [[{ name: 'x', bridge: {} }], [{ name: 'x' }]],
      [[{ name: 'x', bridge: {} }], [{ name: 'x', pod: {}, multus: { networkName: 'n' } }]],
      [
        [
          { name: 'a', bridge: {} },
          { name: 'b', bridge: {} },
        ],
        [
          { name: 'a', multus: { networkName: 'a', default: true } },
          { name: 'b', multus: { networkName: 'b', default: true } },
        ],
      ],
      [
        [masq(), { name: 'b', bridge: {} }],
        [pod, { name: 'b', multus: { networkName: 'b', default: true } }],
      ],
      [[{ name: 'x', bridge: {} }], [{ name: 'x', multus: { networkName: '' } }]],
      [[masq()], [pod, pod]],
      [[masq(), masq()], [pod]],
      [[masq({ name: 'a b' })], [{ name: 'a b', pod: {} }]],
      [
        [masq(), { name: 'ext', bridge: {} }],
        [pod, ext],
      ],
    ],
    (s, [interfaces, networks]) => nets(s, interfaces, networks),
  );
  // featuregate.ValidateFeatureGates on CREATE: a discontinued gate the CR lists while the VM uses it.
  each(
    'discontinued-gates',
    [
      [{ name: 'default', passt: {} }, pod, ['Passt']],
      [{ name: 'ext', macvtap: {} }, ext, ['Macvtap']],
      [masq(), pod, ['Passt', 'Macvtap']],
      [{ name: 'default', slirp: {} }, pod, ['Passt']],
      [{ name: 'default', passt: {} }, pod, []],
    ],
    (s, [iface, network, featureGates]) => {
      nets(s, [iface], [network]);
      return featureGates.length > 0 ? gates(...featureGates) : undefined;
    },
  );
  const dra = (claimName, requestName) => ({
    name: 'd',
    resourceClaim: { ...(claimName !== null ? { claimName } : {}), ...(requestName !== null ? { requestName } : {}) },
  });
  each(
    'network-dra',
    [
      [[{ name: 'd', sriov: {} }], [dra('c', 'r')], true, true],
      [[{ name: 'd', sriov: {} }], [dra('c', 'r')], true, false],
      [[{ name: 'd', bridge: {} }], [dra('c', 'r')], true, true],
      [[{ name: 'd', sriov: {} }], [dra(null, 'r')], true, true],
      [[{ name: 'd', sriov: {} }], [dra('c', null)], true, true],
      [[{ name: 'd', sriov: {} }], [dra('other', 'r')], true, true],
      [
        [
          { name: 'd', sriov: {} },
          { name: 'e', sriov: {} },
        ],
        [dra('c', 'r'), { ...dra('c', 'r'), name: 'e' }],
        true,
        true,
      ],
      [
        [
          { name: 'd', sriov: {} },
          { name: 'ext', bridge: {} },
        ],
        [dra('c', 'r'), ext],
        true,
        true,
      ],
    ],
    (s, [interfaces, networks, claims, gate]) => {
      nets(s, interfaces, networks);
      if (claims) s.resourceClaims = [{ name: 'c', resourceClaimName: 'c' }];
      return gate ? gates('NetworkDevicesWithDRA') : undefined;
    },
  );
}

/** The DRA admitter (pkg/dra/admitter), utility volumes and the VMI metadata rules. */
function draFamilies(each) {
  const claim = (name, extra = { resourceClaimName: name }) => ({ name, ...extra });
  const gates = (...featureGates) => ({ configuration: { developerConfiguration: { featureGates } } });
  each(
    'resource-claims',
    [
      [claim('c')],
      [claim('')],
      [claim('C_1')],
      [claim('c', {})],
      [claim('c', { resourceClaimName: 'c', resourceClaimTemplateName: 't' })],
      [claim('c', { resourceClaimTemplateName: 'Bad_Name' })],
      [claim('c', { resourceClaimTemplateName: 'gpu-template' })],
      [claim('c'), claim('c')],
    ],
    (s, v) => (s.resourceClaims = v),
  );
  const gpu = (extra) => ({ name: 'g', ...extra });
  const hd = (extra) => ({ name: 'h', ...extra });
  each(
    'dra-devices',
    [
      [{ gpus: [gpu({ claimName: 'c', requestName: 'r' })] }, true, null],
      [{ gpus: [gpu({ claimName: 'c', requestName: 'r' })] }, false, null],
      [{ gpus: [gpu({ claimName: 'c', requestName: 'r' })] }, true, ['GPUsWithDRA']],
      [{ gpus: [gpu({ claimName: 'c', requestName: 'r' }), { name: 'g2', deviceName: 'nvidia.com/GA102' }] }, true, null],
      [{ gpus: [gpu({})] }, true, null],
      [{ gpus: [gpu({ deviceName: 'nvidia.com/GA102', claimName: 'c' })] }, true, null],
      [{ gpus: [gpu({ claimName: '', requestName: 'r' })] }, true, null],
      [{ gpus: [gpu({ requestName: 'r' })] }, true, null],
      [{ gpus: [gpu({ claimName: 'c', requestName: 'r' }), { name: 'g2', claimName: 'c', requestName: 'r' }] }, true, null],
      [{ hostDevices: [hd({ claimName: 'c', requestName: 'r' })] }, true, ['HostDevicesWithDRA']],
      [{ hostDevices: [hd({ claimName: 'c', requestName: 'r' }), { name: 'h2', deviceName: 'example.com/nic' }] }, true, ['HostDevices']],
      [{ hostDevices: [hd({})] }, true, ['HostDevices']],
      [{ gpus: [gpu({ claimName: 'c', requestName: 'r' })], hostDevices: [hd({ claimName: 'c', requestName: 'r' })] }, true, null],
      [{ gpus: [gpu({ claimName: 'other', requestName: 'r' })] }, true, null],
    ],
    (s, [devices, claims, featureGates]) => {
      for (const [k, v] of Object.entries(devices)) set(s, [...D, 'devices', k], v);
      if (claims) s.resourceClaims = [claim('c')];
      return featureGates ? gates(...featureGates) : undefined;
    },
  );
  each('utility-volumes', [[], [{ name: 'u', claimName: 'backup' }]], (s, v) => (s.utilityVolumes = v));
  each(
    'vmi-metadata',
    [
      [{ annotations: { 'kubevirt.io/ignitiondata': '{"ignition":{}}' } }, null],
      [{ annotations: { 'kubevirt.io/ignitiondata': '{"ignition":{}}' } }, ['ExperimentalIgnitionSupport']],
      [{ annotations: { 'kubevirt.io/ignitiondata': '' } }, null],
      [{ annotations: { 'hooks.kubevirt.io/hookSidecars': '[]' } }, null],
      [{ labels: { 'kubevirt.io/created-by': 'me' } }, null],
      [{ labels: { 'kubevirt.io/nodeName': 'node-1' } }, null],
      [{ labels: { 'kubevirt.io/domain': 'vm' } }, null],
    ],
    (s, [metadata, featureGates], vm) => {
      vm.spec.template.metadata = metadata;
      return featureGates ? gates(...featureGates) : undefined;
    },
  );
}

/** The VM webhook's own rules (vms-admitter.go): the run strategy, the DataVolume templates and their namespace. */
function vmFamilies(each) {
  each(
    'run-strategy',
    [
      ['Always', null],
      ['Bogus', null],
      ['WaitAsReceiver', null],
      [null, true],
      [null, false],
      ['Always', true],
      [null, null],
      ['RerunOnFailure', null],
      ['Once', null],
      ['Manual', null],
      ['always', null],
    ],
    (s, [runStrategy, running], vm) => {
      delete vm.spec.runStrategy;
      if (runStrategy !== null) vm.spec.runStrategy = runStrategy;
      if (running !== null) vm.spec.running = running;
    },
  );
  const storage = { resources: { requests: { storage: '10Gi' } } };
  const dvt = (extra, spec) => ({ metadata: { name: 'root-dv', ...extra }, spec });
  each(
    'data-volume-templates',
    [
      [dvt({}, { storage, source: { blank: {} } }), true],
      [dvt({ name: '' }, { storage, source: { blank: {} } }), true],
      [dvt({}, { source: { blank: {} } }), true],
      [dvt({}, { storage, pvc: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } }, source: { blank: {} } }), true],
      [dvt({}, { storage: { ...storage, dataSourceRef: { kind: 'VolumeSnapshot', name: 'snap' } }, source: { blank: {} } }), true],
      [dvt({}, { storage }), true],
      [dvt({}, { storage, source: {} }), true],
      [dvt({}, { storage, source: { http: { url: 'https://example.com/disk.img' }, blank: {} } }), true],
      [dvt({}, { storage, sourceRef: { kind: 'DataSource', name: 'fedora', namespace: 'os-images' } }), true],
      [dvt({}, { storage, source: { blank: {} } }), false],
      [dvt({ namespace: 'other' }, { storage, source: { blank: {} } }), true],
      [dvt({ namespace: 'team' }, { storage, source: { blank: {} } }), true],
    ],
    (s, [template, referenced], vm) => {
      vm.spec.dataVolumeTemplates = [template];
      s.volumes = [...s.volumes, { name: 'data', dataVolume: { name: referenced ? 'root-dv' : 'other-dv' } }];
      set(
        s,
        [...D, 'devices', 'disks'],
        [
          { name: 'rootdisk', disk: { bus: 'virtio' } },
          { name: 'data', disk: { bus: 'virtio' } },
        ],
      );
    },
  );
}

/** Grace IO virtualization (v1.9): NVIDIA Grace GPUs passed through, by the permitted PCI resource that selects them. */
function graceFamilies(each) {
  const permitted = {
    pciHostDevices: [
      { pciVendorSelector: '10DE:2342', resourceName: 'nvidia.com/GH100' },
      { pciVendorSelector: '10de:*', resourceName: 'nvidia.com/ANY' },
      { pciVendorSelector: '10DE:1EB8', resourceName: 'nvidia.com/T4' },
    ],
  };
  const grace = ['GraceIOVirtualization', 'PCINUMAAwareTopology', 'IOMMUFD'];
  each(
    'grace-io',
    [
      ['gpus', 'nvidia.com/GH100', [], null],
      ['gpus', 'nvidia.com/GH100', ['GraceIOVirtualization'], null],
      ['gpus', 'nvidia.com/GH100', grace, 'arm64'],
      ['gpus', 'nvidia.com/ANY', ['GraceIOVirtualization'], null],
      ['gpus', 'nvidia.com/ANY', [], null],
      ['gpus', 'nvidia.com/T4', ['GraceIOVirtualization'], null],
      ['hostDevices', 'nvidia.com/GH100', ['HostDevices'], null],
      ['hostDevices', 'nvidia.com/GH100', ['HostDevices', ...grace], 'arm64'],
      ['gpus', 'nvidia.com/GH100', grace, 'arm64', { 'kubevirt.io/placePCIDevicesOnRootComplex': 'true', 'kubevirt.io/disablePCIHole64': 'true' }],
    ],
    (s, [kind, deviceName, featureGates, arch, annotations], vm) => {
      set(s, [...D, 'devices', kind], [{ name: 'dev', deviceName }]);
      if (arch) {
        s.architecture = arch;
        set(s, [...D, 'cpu', 'dedicatedCpuPlacement'], true);
      }
      if (annotations) vm.spec.template.metadata = { annotations };
      return { configuration: { permittedHostDevices: permitted, developerConfiguration: { featureGates } } };
    },
  );
}

/**
 * The rule families the one judge added (issue 50): Hyper-V dependencies and HypervPassthrough,
 * s390x's watchdog and video, the pod DNS configuration, the eviction strategy, the supplemental IO
 * thread pool, read-only SATA disks, ContainerPath volumes, Kubernetes enums the CRD lacks (the
 * webhook's schema check), and an empty hook sidecar annotation.
 */
function judgeFamilies(each) {
  const H = [...D, 'features', 'hyperv'];
  each(
    'hyperv-dependencies',
    [
      { synic: { enabled: true }, vpindex: { enabled: false } },
      { synic: {} },
      { synictimer: { enabled: true }, synic: { enabled: false } },
      { evmcs: {}, vapic: { enabled: false } },
      { ipi: {}, vpindex: { enabled: false } },
      { tlbflush: {}, vpindex: { enabled: false } },
      { tlbflush: { enabled: true, direct: {} } },
      { relaxed: {}, vapic: {}, vpindex: {}, synic: {}, synictimer: {} },
    ],
    (s, v) => set(s, H, v),
  );
  each('hyperv-evmcs-vmx', ['forbid', 'require', 'optional'], (s, v) => {
    set(s, H, { evmcs: {}, vapic: {} });
    set(s, [...D, 'cpu', 'features'], [{ name: 'vmx', policy: v }]);
  });
  each('hyperv-passthrough', [{ enabled: true }, {}], (s, v) => {
    set(s, H, { relaxed: {} });
    set(s, [...D, 'features', 'hypervPassthrough'], v);
  });
  each(
    's390x-devices',
    [
      ['watchdog', { name: 'w', i6300esb: {} }],
      ['watchdog', { name: 'w', diag288: {} }],
      ['video', { type: 'vga' }],
      ['video', { type: 'virtio' }],
    ],
    (s, [what, v]) => {
      s.architecture = 's390x';
      set(s, [...D, 'devices', what], v);
      return { configuration: { developerConfiguration: { featureGates: ['MultiArchitecture'] } } };
    },
  );
  each(
    'dns-config',
    [
      ['None', {}],
      ['None', { nameservers: ['10.0.0.1'] }],
      ['ClusterFirst', { nameservers: ['1.1.1.1', '1.0.0.1', '8.8.8.8', '8.8.4.4'] }],
      ['ClusterFirst', { nameservers: ['not-an-ip', '::1', '2001:db8::1'] }],
      ['ClusterFirst', { searches: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }],
      ['ClusterFirst', { searches: ['x'.repeat(200), 'y'.repeat(60)] }],
      ['ClusterFirst', { searches: ['Bad_Domain', 'good.example.com'] }],
      ['ClusterFirst', { options: [{ name: '' }, { name: 'ndots', value: '2' }] }],
    ],
    (s, [policy, config]) => {
      s.dnsPolicy = policy;
      s.dnsConfig = config;
    },
  );
  each('eviction-strategy', ['LiveMigrate', 'LiveMigrateIfPossible', 'External', 'None', 'Bogus', 'livemigrate'], (s, v) => (s.evictionStrategy = v));
  each('io-threads-pool', [undefined, 0, 2], (s, v) => {
    set(s, [...D, 'ioThreadsPolicy'], 'supplementalPool');
    if (v !== undefined) set(s, [...D, 'ioThreads'], { supplementalPoolThreadCount: v });
  });
  each(
    'sata-readonly',
    [
      { name: 'rootdisk', disk: { bus: 'sata', readonly: true } },
      { name: 'rootdisk', cdrom: { bus: 'sata', readonly: true } },
      { name: 'rootdisk', disk: { bus: 'virtio', readonly: true } },
      { name: 'rootdisk', disk: { bus: 'sata' } },
    ],
    (s, v) => set(s, [...D, 'devices', 'disks'], [v]),
  );
  each(
    'container-path',
    [
      ['fs', '/var/run/kubevirt/x'],
      ['fs', '/var/run/libvirt/sock'],
      ['fs', '/data'],
      ['disk', '/data'],
      ['none', '/data'],
    ],
    (s, [as, path]) => {
      s.volumes = [...s.volumes, { name: 'cp', containerPath: { path } }];
      if (as === 'fs') set(s, [...D, 'devices', 'filesystems'], [{ name: 'cp', virtiofs: {} }]);
      if (as === 'disk') set(s, [...D, 'devices', 'disks'], [{ name: 'cp', disk: {} }]);
    },
  );
  each(
    'schema-enums',
    [
      ['tolerations', [{ key: 'k', operator: 'Bogus', effect: 'NoSchedule' }]],
      ['tolerations', [{ key: 'k', operator: 'Exists', effect: 'Sometimes' }]],
      ['topologySpreadConstraints', [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'Maybe' }]],
      [
        'affinity',
        {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'k', operator: 'Like', values: ['v'] }] }] },
          },
        },
      ],
      ['tolerations', [{ key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' }]],
    ],
    (s, [k, v]) => (s[k] = v),
  );
  each('hook-sidecar-annotation', ['', '[]', 'not json'], (s, v, vm) => {
    vm.spec.template.metadata = { annotations: { 'hooks.kubevirt.io/hookSidecars': v } };
    return { configuration: { developerConfiguration: { featureGates: ['Sidecar'] } } };
  });
}

const CLAIM_FAMILIES = new Set(['persistent-reservation', 'filesystems', 'data-volume-templates']);

/** A bound PersistentVolumeClaim for each PVC and DataVolume volume (and the DataVolume, succeeded). */
function claimsOf(volumes, namespace) {
  return volumes.flatMap((v) => {
    const name = v.persistentVolumeClaim?.claimName ?? v.dataVolume?.name;
    if (typeof name !== 'string' || name === '') return [];
    const pvc = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name, namespace },
      spec: { accessModes: ['ReadWriteOnce'], volumeMode: 'Filesystem', resources: { requests: { storage: '10Gi' } } },
      status: { phase: 'Bound', capacity: { storage: '10Gi' } },
    };
    if (!v.dataVolume) return [pvc];
    const dv = {
      apiVersion: 'cdi.kubevirt.io/v1beta1',
      kind: 'DataVolume',
      metadata: { name, namespace },
      spec: { source: { blank: {} }, storage: { resources: { requests: { storage: '10Gi' } } } },
      status: { phase: 'Succeeded', progress: '100.0%' },
    };
    return [dv, pvc];
  });
}

/** A configuration laid over another: mappings merge, lists join. */
function mergeConfig(a, b) {
  const out = { ...a };
  for (const [k, v] of Object.entries(b))
    out[k] = Array.isArray(v) && Array.isArray(out[k]) ? [...new Set([...out[k], ...v])] : v && typeof v === 'object' && out[k] ? mergeConfig(out[k], v) : v;
  return out;
}

function gen() {
  const seed = Number(opt('--seed', '11'));
  const count = Number(opt('--count', '3000'));
  const bundleLine = readFileSync(opt('--bundle'), 'utf8').split('\n')[0];
  const bundle = JSON.parse(bundleLine);
  const { pick, chance } = seeded(seed);
  const its = bundle.objects
    .filter((o) => o.kind === 'VirtualMachineClusterInstancetype' && /^(u1|o1|cx1|m1)\./.test(o.metadata.name))
    .map((o) => o.metadata.name);
  const prefs = ['fedora', 'rhel.9', 'ubuntu', 'centos.stream9', 'windows.2k22', 'alpine'];
  const all = mutations();
  const lines = [bundleLine.trim()];
  for (let i = 0; i < count; i++) {
    // Every mutation at least once, then random ones.
    const [family, value, apply] = i < all.length ? all[i] : pick(all);
    const typed = chance(0.5);
    const spec = {
      domain: { devices: {}, ...(typed ? {} : { resources: { requests: { memory: pick(['1Gi', '2Gi', '4Gi']) } } }) },
      volumes: [{ name: 'rootdisk', containerDisk: { image: 'quay.io/containerdisks/fedora:41' } }],
    };
    const vm = {
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachine',
      metadata: { name: `vm-${i}`, namespace: 'team' },
      spec: {
        runStrategy: 'Always',
        ...(typed ? { instancetype: { name: pick(its) }, preference: { name: pick(prefs) } } : {}),
        template: { spec },
      },
    };
    const needs = apply(spec, vm);
    // The families whose rules are about storage volumes get their claims (the render reads each
    // PVC's volume mode; a missing one fails the start, which is not what they test).
    const objects = CLAIM_FAMILIES.has(family) ? claimsOf(spec.volumes, 'team') : [];
    const drawn = chance(0.6)
      ? null
      : {
          spec: {
            configuration: {
              ...(chance(0.4) ? { vmRolloutStrategy: 'Stage' } : {}),
              ...(chance(0.3)
                ? {
                    developerConfiguration: {
                      featureGates: [
                        'HostDevices',
                        'HostDisk',
                        'DownwardMetrics',
                        'VSOCK',
                        ...(chance(0.5) ? ['EnableVirtioFsStorageVolumes', 'ReservedOverheadMemlock', 'PersistentReservation'] : []),
                      ],
                    },
                  }
                : {}),
            },
          },
        };
    // A value that needs a cluster configuration has it laid over the drawn one.
    const kubevirt = needs?.configuration ? { spec: { configuration: mergeConfig(drawn?.spec.configuration ?? {}, needs.configuration) } } : drawn;
    lines.push(
      JSON.stringify({ id: `a${String(i).padStart(5, '0')}`, mode: 'preview', category: family, value, vm, objectSets: ['bundle'], objects, kubevirt }),
    );
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'cases.jsonl'), `${lines.join('\n')}\n`);
  console.log(`${count} cases over ${all.length} mutations in ${new Set(all.map((x) => x[0])).size} families`);
}

if (mode === 'gen') gen();
else if (mode === 'answer') answerWithKubevirtOracle(dir);
else {
  console.error('usage: admission-corpus.mjs gen|answer DIR');
  process.exitCode = 1;
}
