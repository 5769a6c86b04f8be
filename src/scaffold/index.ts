/**
 * `itgen init`: a working catalog repository for a vendor or platform team, as files. A small
 * family x size matrix (two families, three sizes), a Linux and a Windows preference inheriting a
 * common base, the generator, a root kustomization, editor schema modelines, a .gitignore and a CI
 * workflow that validates and checks. Written only where nothing exists yet (see `existingFiles`).
 */
import type { OutputFile } from '../emit/layout';

export interface ScaffoldOptions {
  /** Generator and catalog name: lowercase letters, digits and `-`. */
  readonly name: string;
  /** The instancetype.kubevirt.io/vendor label; never KubeVirt's own. */
  readonly vendor: string;
}

export const SCAFFOLD_NAME = /^[a-z0-9]([a-z0-9-]{0,40}[a-z0-9])?$/;

/** A vendor derived from a name when none is given: an example domain the team replaces. */
export function defaultVendor(name: string): string {
  return `${name}.example.com`;
}

/** Why a name or vendor cannot be used, or undefined. */
export function scaffoldProblem(o: ScaffoldOptions): string | undefined {
  if (!SCAFFOLD_NAME.test(o.name)) return `--name ${JSON.stringify(o.name)}: use lowercase letters, digits and -, like acme`;
  if (!/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(o.vendor))
    return `--vendor ${JSON.stringify(o.vendor)}: a vendor is a lowercase domain-like name, like acme.example.com`;
  if (o.vendor === 'kubevirt.io') return "--vendor kubevirt.io is KubeVirt's own: objects labelled so would pass for upstream common-instancetypes";
  return undefined;
}

const SCHEMA = (kind: 'catalog' | 'generator', depth: number): string =>
  `# yaml-language-server: $schema=${'../'.repeat(depth)}node_modules/itgen/schema/${kind}.schema.json`;

export function scaffoldFiles(o: ScaffoldOptions): OutputFile[] {
  const { name, vendor } = o;
  return [
    {
      path: `generators/${name}.yaml`,
      content: `${SCHEMA('generator', 1)}
# What itgen generates from the catalog, for whom (itgen schema generator lists every key).
apiVersion: itgen.dev/v1alpha1
kind: Generator
metadata:
  name: ${name}
catalog: ../catalogs/${name}
output: ../output/${name}
vendor: ${vendor}
# KubeVirt's per-instance-type metrics name only kubevirt.io and redhat.com; other vendors' objects
# are counted as <other>. Accepted knowingly here; remove the line to see the warning (IT5007).
suppressWarnings: [IT5007]
`,
    },
    {
      path: `catalogs/${name}/catalog.yaml`,
      content: `${SCHEMA('catalog', 2)}
# The catalog: naming, then the sizes every family offers.
kind: Catalog
name: ${name}
naming:
  instancetype: "{family}{version}.{size}"
  preference: "${name}.{name}"
---
kind: SizeLadder
name: sizes
sizes:
  - {name: small, cpu: 1}
  - {name: medium, cpu: 2}
  - {name: large, cpu: 4}
`,
    },
    {
      path: `catalogs/${name}/families.yaml`,
      content: `${SCHEMA('catalog', 2)}
# Families: one instance type per size; guest memory is vCPUs x memoryPerCPU.
kind: Family
name: g
version: 1
displayName: General purpose
description: General purpose, 4Gi of memory per vCPU.
class: general.purpose
memoryPerCPU: 4Gi
---
kind: Family
name: c
version: 1
displayName: Compute
description: Compute heavy, 2Gi of memory per vCPU.
class: compute
memoryPerCPU: 2Gi
`,
    },
    {
      path: `catalogs/${name}/preferences.yaml`,
      content: `${SCHEMA('catalog', 2)}
# Preferences: what a guest OS needs. Both inherit the common base.
kind: Preference
name: common
abstract: true
spec:
  devices:
    preferredRng: {}
  requirements:
    cpu: {guest: 1}
---
kind: Preference
name: linux
inherits: common
displayName: Linux
architectures: [amd64, arm64]
spec:
  devices:
    preferredDiskBus: virtio
    preferredInterfaceModel: virtio
  requirements:
    memory: {guest: 1Gi}
---
kind: Preference
name: windows
inherits: common
displayName: Windows
spec:
  clock:
    preferredClockOffset: {utc: {}}
  devices:
    preferredDiskBus: sata
    preferredInterfaceModel: e1000e
    preferredTPM: {}
  features:
    preferredAcpi: {}
    preferredApic: {}
    preferredHyperv:
      relaxed: {}
      vapic: {}
      spinlocks: {spinlocks: 8191}
    preferredSmm: {}
  firmware:
    preferredEfi: {secureBoot: true}
  requirements:
    cpu: {guest: 2}
    memory: {guest: 4Gi}
`,
    },
    {
      path: 'kustomization.yaml',
      content: `# What a GitOps tool syncs: the generated base (itgen generate writes it; commit it).\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - output/${name}\n`,
    },
    { path: '.gitignore', content: 'node_modules/\n_build/\n' },
    {
      path: '.github/workflows/itgen.yaml',
      content: `# Every pull request: the catalog validates, and the committed base is what it generates.
name: itgen
on:
  pull_request:
  push:
    branches: [main]
permissions:
  contents: read
jobs:
  itgen:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          persist-credentials: false
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - run: npm ci
      - run: npx itgen validate --format github
      - run: npx itgen check --format github
`,
    },
  ];
}
