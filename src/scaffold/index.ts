/**
 * `itgen init`: a working catalog repository for a vendor or platform team, as files. A small
 * family x size matrix (two families, three sizes), a Linux and a Windows preference inheriting a
 * common base, the generator, a root kustomization, editor schema modelines, a .gitignore and a CI
 * workflow that validates and checks. Written only where nothing exists yet (see `existingFiles`).
 */
import type { OutputFile } from '../emit/layout';
import { ACTIONS } from './actions';

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

/** The files init writes, each a text template of its own. */
export function scaffoldFiles(o: ScaffoldOptions): OutputFile[] {
  return [generatorFile(o), catalogFile(o), familiesFile(o), preferencesFile(o), ...rootKustomization(o), checkWorkflow(), commentWorkflow()];
}

/** The generator: which catalog, where to, for which vendor. */
function generatorFile({ name, vendor }: ScaffoldOptions): OutputFile {
  return {
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
  };
}

/** The Catalog document: naming, and the sizes every family offers. */
function catalogFile({ name }: ScaffoldOptions): OutputFile {
  return {
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
  };
}

/** Two families over the sizes. */
function familiesFile({ name }: ScaffoldOptions): OutputFile {
  return {
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
  };
}

/** A common base and the Linux and Windows preferences inheriting it. */
function preferencesFile({ name }: ScaffoldOptions): OutputFile {
  return {
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
  };
}

/** The root kustomization deploying the generated base, and what git leaves out. */
function rootKustomization({ name }: ScaffoldOptions): OutputFile[] {
  return [
    {
      path: 'kustomization.yaml',
      content: `# What a GitOps tool syncs: the generated base (itgen generate writes it; commit it).\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - output/${name}\n`,
    },
    { path: '.gitignore', content: 'node_modules/\n_build/\n' },
  ];
}

/** The GitHub workflow that validates and checks on every pull request. */
function checkWorkflow(): OutputFile {
  return {
    path: '.github/workflows/itgen.yaml',
    content: `# Every pull request: the catalog validates, every VM under vms/ is judged against it, the
# committed base is what it generates, and what the change does (objects, and the VMs under vms/
# that use them) becomes a comment, posted by itgen-comment.yaml: this workflow runs the pull
# request's code with a read-only token.
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
      - uses: ${ACTIONS.checkout}
        with:
          persist-credentials: false
          fetch-depth: 0
      - uses: ${ACTIONS.setupNode}
        with:
          node-version: 24
      - run: npm ci
      # The catalogs, and every VM kept under vms/ judged against them as KubeVirt would on apply;
      # on a pull request the release lock is held to the one its base branch published.
      - env:
          BASE_REF: \${{ github.base_ref }}
        run: |
          vms=""
          if [ -d vms ]; then vms="--vms vms"; fi
          base=""
          if [ -n "$BASE_REF" ]; then base="--base origin/$BASE_REF"; fi
          node_modules/.bin/itgen validate --format github $base $vms
      - run: node_modules/.bin/itgen check --format github
      - name: What this pull request changes
        if: always() && github.event_name == 'pull_request'
        env:
          BASE_REF: \${{ github.base_ref }}
        run: |
          mkdir -p itgen-review
          vms=""
          if [ -d vms ]; then vms="--vms vms"; fi
          node_modules/.bin/itgen diff -o markdown --against "origin/$BASE_REF" $vms > itgen-review/comment.md || true
      - if: always() && github.event_name == 'pull_request'
        uses: ${ACTIONS.uploadArtifact}
        with:
          name: itgen-review
          path: itgen-review/
`,
  };
}

/** The GitHub workflow that posts the review comment from the check's artifact. */
function commentWorkflow(): OutputFile {
  return {
    path: '.github/workflows/itgen-comment.yaml',
    content: `# Posts the review of itgen.yaml as one comment per pull request, updated on every push. It runs
# with a token that may comment, so it never checks out or runs the pull request's code, and it
# trusts nothing the artifact says: the pull request wrote it (its own workflow, package.json and
# lockfile decide what runs), so this job finds the pull request by the commit, reads at most
# 256 KiB, and neutralizes the text itself before posting: HTML but the review's own tags is shown
# as text, @mentions, #references, links, images and bare URLs are broken with a zero-width space,
# control characters dropped, the body bounded below GitHub's 65,536 characters. Its actions are
# pinned by commit (GitHub's hardening guide for privileged workflows).
name: itgen comment
on:
  workflow_run:
    workflows: [itgen]
    types: [completed]
permissions:
  actions: read
  contents: read
  pull-requests: write
jobs:
  comment:
    if: github.event.workflow_run.event == 'pull_request'
    runs-on: ubuntu-latest
    steps:
      - uses: ${ACTIONS.downloadArtifact}
        with:
          name: itgen-review
          run-id: \${{ github.event.workflow_run.id }}
          github-token: \${{ secrets.GITHUB_TOKEN }}
      - uses: ${ACTIONS.githubScript}
        env:
          HEAD_SHA: \${{ github.event.workflow_run.head_sha }}
        with:
          script: |
            const fs = require('fs');
            const marker = '<!-- itgen-review -->';
            const { owner, repo } = context.repo;
            const pulls = await github.paginate(github.rest.pulls.list, { owner, repo, state: 'open' });
            const pull = pulls.find((p) => p.head.sha === process.env.HEAD_SHA);
            if (!pull) return;
            // At most 256 KiB of the artifact, whatever its size (a link or a directory reads as nothing).
            let raw = '';
            try {
              const st = fs.lstatSync('comment.md');
              if (st.isFile()) {
                const fd = fs.openSync('comment.md', 'r');
                const buf = Buffer.alloc(262144);
                const n = fs.readSync(fd, buf, 0, buf.length, 0);
                fs.closeSync(fd);
                raw = buf.subarray(0, n).toString('utf8');
              }
            } catch (e) {
              raw = '';
            }
            const zw = '\\u200b';
            const text = raw
              // No control character but the line break.
              .replace(/[\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f]/g, '')
              // HTML is text, but for the few tags the review itself writes.
              .replace(/<(?!\\/?(?:details|summary|br)>)/g, '&lt;')
              // No @mention, #reference, link, image or bare URL reaches GitHub's renderer whole.
              .replace(/@(?=[A-Za-z0-9_-])/g, '@' + zw)
              .replace(/#(?=[0-9])/g, '#' + zw)
              .replace(/\\]\\(/g, ']' + zw + '(')
              .replace(/\\]\\[/g, ']' + zw + '[')
              .replace(/\\]:/g, ']' + zw + ':')
              .replace(/(https?|ftp|mailto|javascript|data|file):/gi, '$1' + zw + ':')
              .replace(/www\\./gi, 'www' + zw + '.');
            const limit = 60000;
            const note = '\\n\\n(cut: the comment is bounded; the full review is in the itgen-review artifact of the workflow run)\\n';
            const bounded = text.length > limit ? text.slice(0, limit - note.length) + note : text;
            const body = marker + '\\n' + bounded;
            const comments = await github.paginate(github.rest.issues.listComments, { owner, repo, issue_number: pull.number });
            const mine = comments.find((c) => c.user && c.user.type === 'Bot' && typeof c.body === 'string' && c.body.startsWith(marker));
            if (mine) await github.rest.issues.updateComment({ owner, repo, comment_id: mine.id, body });
            else await github.rest.issues.createComment({ owner, repo, issue_number: pull.number, body });
`,
  };
}
