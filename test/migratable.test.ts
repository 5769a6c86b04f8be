/**
 * The LiveMigratable condition as virt-handler computes it (src/kubevirt/migratable.ts, a
 * transcription of pkg/virt-handler/vm.go calculateLiveMigrationCondition at v1.9): its order,
 * reasons and words. No oracle mode runs virt-handler; resize-cli.test.ts shows it in `resize`.
 */
import type { JsonObject } from '../src/json';
import { KUBEVIRT_DEFAULTS, kubevirtConfig } from '../src/kubevirt/config';
import { liveMigratableCondition } from '../src/kubevirt/migratable';

const vmi = (spec: JsonObject, annotations: Record<string, string> = {}): JsonObject => ({
  metadata: { name: 'web', namespace: 'apps', annotations },
  spec: {
    domain: { devices: { interfaces: [{ name: 'default', masquerade: {} }] }, ...((spec['domain'] as JsonObject) ?? {}) },
    networks: [{ name: 'default', pod: {} }],
    volumes: [{ name: 'rootdisk', containerDisk: { image: 'quay.io/containerdisks/fedora:41' } }],
    ...Object.fromEntries(Object.entries(spec).filter(([k]) => k !== 'domain')),
  },
});
const pvc = (name: string, mode: string): JsonObject => ({
  kind: 'PersistentVolumeClaim',
  metadata: { name, namespace: 'apps' },
  spec: { accessModes: [mode] },
});
const devices = (d: JsonObject): JsonObject => ({ domain: { devices: { interfaces: [{ name: 'default', masquerade: {} }], ...d } } });

describe('the LiveMigratable condition', () => {
  it('masquerade on the pod network, a container disk: migratable, nothing assumed', () => {
    expect(liveMigratableCondition(vmi({}), KUBEVIRT_DEFAULTS, [])).toEqual({ migratable: true, assumed: [] });
  });

  it('bridge on the pod network: not, unless the VMI carries the annotation that allows it', () => {
    const bridge = { domain: { devices: { interfaces: [{ name: 'default', bridge: {} }] } } };
    expect(liveMigratableCondition(vmi(bridge), KUBEVIRT_DEFAULTS, [])).toMatchObject({
      migratable: false,
      reason: 'InterfaceNotLiveMigratable',
      message: 'cannot migrate VMI which does not use masquerade or a migratable plugin to connect to the pod network',
    });
    expect(liveMigratableCondition(vmi(bridge, { 'kubevirt.io/allow-pod-bridge-network-live-migration': '' }), KUBEVIRT_DEFAULTS, []).migratable).toBe(true);
  });

  it('a binding plugin migrates only when the cluster registers it with `migration`', () => {
    const plugin = { domain: { devices: { interfaces: [{ name: 'default', binding: { name: 'passt' } }] } } };
    expect(liveMigratableCondition(vmi(plugin), KUBEVIRT_DEFAULTS, []).migratable).toBe(false);
    const cr = kubevirtConfig({ spec: { configuration: { network: { binding: { passt: { sidecarImage: 'x', migration: {} } } } } } }).config;
    expect(liveMigratableCondition(vmi(plugin), cr, []).migratable).toBe(true);
  });

  it('host devices and GPUs, in KubeVirt order and words', () => {
    const no = (d: JsonObject, cr = KUBEVIRT_DEFAULTS): unknown => liveMigratableCondition(vmi(devices(d)), cr, []);
    expect(no({ hostDevices: [{ name: 'h', deviceName: 'x/y' }] })).toMatchObject({
      reason: 'HostDeviceNotLiveMigratable',
      message: 'VMI specifies non-migratable generic PCI host device',
    });
    expect(
      no({
        gpus: [
          { name: 'a', deviceName: 'x' },
          { name: 'b', deviceName: 'x' },
        ],
      }),
    ).toMatchObject({ message: 'VMI specifies too many GPUs' });
    expect(no({ gpus: [{ name: 'a', deviceName: 'nvidia.com/GRID' }] })).toMatchObject({
      message: 'VMI specifies a GPU but feature gate VGPULiveMigration is not enabled',
    });
    const vgpu = kubevirtConfig({
      spec: {
        configuration: {
          developerConfiguration: { featureGates: ['VGPULiveMigration'] },
          permittedHostDevices: { mediatedDevices: [{ mdevNameSelector: 'GRID T4-1Q', resourceName: 'nvidia.com/GRID' }] },
        },
      },
    }).config;
    expect(no({ gpus: [{ name: 'a', deviceName: 'nvidia.com/GRID' }] }, vgpu)).toEqual({ migratable: true, assumed: [] });
    expect(no({ gpus: [{ name: 'a', deviceName: 'nvidia.com/PCI' }] }, vgpu)).toMatchObject({ message: 'VMI specifies non-migratable GPU device' });
  });

  it('launch security and Hyper-V passthrough', () => {
    expect(liveMigratableCondition(vmi({ domain: { launchSecurity: { sev: {} } } }), KUBEVIRT_DEFAULTS, [])).toMatchObject({
      reason: 'SEVNotLiveMigratable',
      message: 'VMI uses SEV',
    });
    expect(liveMigratableCondition(vmi({ domain: { launchSecurity: { tdx: {} } } }), KUBEVIRT_DEFAULTS, [])).toMatchObject({ message: 'VMI uses TDX' });
    expect(liveMigratableCondition(vmi({ architecture: 's390x', domain: { launchSecurity: {} } }), KUBEVIRT_DEFAULTS, [])).toMatchObject({
      message: 'VMI uses Secure Execution',
    });
    expect(liveMigratableCondition(vmi({ domain: { features: { hypervPassthrough: { enabled: true } } } }), KUBEVIRT_DEFAULTS, [])).toMatchObject({
      reason: 'HypervPassthroughNotLiveMigratable',
    });
  });

  it('volumes last: every claim ReadWriteMany (one not given assumed, and said), a host disk shared', () => {
    const disks = (volumes: JsonObject[]): JsonObject => vmi({ volumes });
    const claim = [
      { name: 'root', persistentVolumeClaim: { claimName: 'root' } },
      { name: 'data', dataVolume: { name: 'data' } },
    ];
    expect(liveMigratableCondition(disks(claim), KUBEVIRT_DEFAULTS, [pvc('root', 'ReadWriteMany'), pvc('data', 'ReadWriteOnce')])).toMatchObject({
      reason: 'DisksNotLiveMigratable',
      message: 'cannot migrate VMI: PVC data is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)',
    });
    expect(liveMigratableCondition(disks(claim), KUBEVIRT_DEFAULTS, [pvc('root', 'ReadWriteMany')])).toEqual({
      migratable: true,
      assumed: ['PVC data is shared (ReadWriteMany): it was not given (pass it with --with)'],
    });
    expect(liveMigratableCondition(disks([{ name: 'h', hostDisk: { path: '/x', type: 'Disk' } }]), KUBEVIRT_DEFAULTS, [])).toMatchObject({
      message: 'cannot migrate VMI with non-shared HostDisk',
    });
    // An interface problem is said before a disk problem (virt-handler checks the volumes first, reports them last).
    const both = vmi({
      domain: { devices: { interfaces: [{ name: 'default', bridge: {} }] } },
      volumes: [{ name: 'h', hostDisk: { path: '/x', type: 'Disk' } }],
    });
    expect(liveMigratableCondition(both, KUBEVIRT_DEFAULTS, [])).toMatchObject({ reason: 'InterfaceNotLiveMigratable' });
  });
});
