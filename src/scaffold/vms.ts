/**
 * `itgen init --vms`: the CI job of a VM owner's repository, which keeps VirtualMachines and
 * receives the platform's published bundle. On every pull request (merge request) every VM is
 * validated against the bundle and the cluster's KubeVirt CR (admission, then the start), the
 * findings as annotations (a Code Quality report on GitLab), and what each VM runs as (its
 * virt-launcher pod: requests, node selector) is kept as a review artifact.
 */
import { filesInTheWay } from '../emit/write';
import { ACTIONS } from './actions';
import type { OutputFile } from '../emit/layout';
import { blockedPath, gitlabStage, includedInGitlab, read } from './init';
import path from 'node:path';

export interface VmGateOptions {
  readonly ci?: 'github' | 'gitlab';
  /** The platform's bundle: a file or a directory of them (default `platform/`). */
  readonly bundle?: string;
  /** The cluster's KubeVirt CR (`kubectl get kubevirt -n kubevirt kubevirt -o yaml`), if the repository keeps it. */
  readonly kubevirt?: string;
  /** Where the VMs are (default `vms`). */
  readonly vms?: string;
}

/** A path as a shell word: only the characters a path in a repository needs, single-quoted. */
const word = (p: string): string => `'${p.replace(/'/g, "'\\''")}'`;

function flags(o: VmGateOptions): { vms: string; objects: string } {
  const kubevirt = o.kubevirt !== undefined ? ` --kubevirt ${word(o.kubevirt)}` : '';
  return { vms: word(o.vms ?? 'vms'), objects: `--with ${word(o.bundle ?? 'platform')}${kubevirt}` };
}

const GITHUB = (o: VmGateOptions): string => {
  const { vms, objects } = flags(o);
  return `# Every pull request: each VirtualMachine under ${o.vms ?? 'vms'}/ judged as KubeVirt would judge it on apply
# and at its start, against the platform's published instance types and preferences and the
# cluster's configuration; what each VM runs as (its virt-launcher pod) kept as a review artifact.
name: itgen vms
on:
  pull_request:
  push:
    branches: [main]
permissions:
  contents: read
jobs:
  vms:
    runs-on: ubuntu-latest
    steps:
      - uses: ${ACTIONS.checkout}
        with:
          persist-credentials: false
      - uses: ${ACTIONS.setupNode}
        with:
          node-version: 24
      - run: npm ci
      - run: node_modules/.bin/itgen validate --vms ${vms} ${objects} --format github
      - name: What each VM runs as
        if: always()
        run: |
          mkdir -p itgen-pods
          node_modules/.bin/itgen expand ${vms} ${objects} --as pod > itgen-pods/pods.yaml || true
      - if: always()
        uses: ${ACTIONS.uploadArtifact}
        with:
          name: itgen-pods
          path: itgen-pods/
`;
};

const GITLAB = (o: VmGateOptions, stage: string): string => {
  const { vms, objects } = flags(o);
  return `# Every merge request and the default branch: each VirtualMachine under ${o.vms ?? 'vms'}/ judged as KubeVirt
# would judge it on apply and at its start, against the platform's published instance types and
# preferences and the cluster's configuration; the findings as a Code Quality report, and what each
# VM runs as (its virt-launcher pod) as a review artifact. Included from .gitlab-ci.yml.
itgen-vms:
  stage: ${stage}
  image: node:24
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
  script:
    - npm ci
    - |
      if ! node_modules/.bin/itgen validate --vms ${vms} ${objects} --format gitlab > gl-code-quality-report.json; then
        node_modules/.bin/itgen validate --vms ${vms} ${objects}
        exit 1
      fi
  after_script:
    - node_modules/.bin/itgen expand ${vms} ${objects} --as pod > itgen-pods.yaml || true
  artifacts:
    when: always
    expose_as: itgen pods
    paths: [itgen-pods.yaml]
    reports:
      codequality: gl-code-quality-report.json
`;
};

/** What `init --vms` writes in `dir`: the CI job, and `.gitlab-ci.yml` including it; files that exist are left as they are and said. */
export function planVmGate(dir: string, o: VmGateOptions): { files: OutputFile[]; merged: string[]; kept: string[] } {
  const ci = o.ci ?? 'github';
  const wanted: OutputFile[] =
    ci === 'github'
      ? [{ path: '.github/workflows/itgen-vms.yaml', content: GITHUB(o) }]
      : [{ path: 'ci/itgen-vms.gitlab-ci.yml', content: GITLAB(o, gitlabStage(read(path.join(dir, '.gitlab-ci.yml')))) }];
  const inTheWay = new Set(filesInTheWay(dir, wanted).map((f) => f.path));
  const files: OutputFile[] = [];
  const kept: string[] = [];
  const merged: string[] = [];
  for (const f of wanted) {
    const blocked = blockedPath(dir, f.path);
    if (blocked !== undefined) kept.push(`${f.path} (not written: ${blocked})`);
    else if (inTheWay.has(f.path)) kept.push(`${f.path} (exists)`);
    else files.push(f);
  }
  if (ci === 'gitlab' && files.length > 0) {
    const included = includedInGitlab(dir, 'ci/itgen-vms.gitlab-ci.yml');
    files.push(...included.files);
    merged.push(...included.merged);
    kept.push(...included.kept);
  }
  return { files, merged, kept };
}
