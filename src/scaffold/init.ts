/**
 * `itgen init` in a directory that may already be a repository: the common case is adopting itgen
 * in an existing GitOps repository. What is missing is added; a `.gitignore` gets the lines itgen
 * needs, a root `kustomization.yaml` the generated base in its resources; every other file that
 * exists is left as it was and said so. A generator or catalog of the same name is never touched:
 * that is another project, and init refuses.
 *
 * Over 400 lines: The templates init writes (generator, catalog, CI jobs for two forges, GitOps
 * objects) are text, kept with the merge rules that place them.
 */
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { ACTIONS } from './actions';
import { readRegularFile } from '../load/limits';
import path from 'node:path';
import { isMap, isSeq, parseDocument, type YAMLSeq } from 'yaml';
import { realLocation, within } from '../load/files';
import type { OutputFile } from '../emit/layout';
import { filesInTheWay } from '../emit/write';
import { GITLAB_NOTE_SCRIPT } from './gitlab-note';
import { scaffoldFiles, type ScaffoldOptions } from './index';
import { loadProjectManifests, syncerName, syncersOf } from '../load/manifests';
import { applies } from '../release/deploy';

export interface InitOptions extends ScaffoldOptions {
  /** The CI the repository uses: GitHub Actions (default), GitLab CI, or none. */
  readonly ci?: 'github' | 'gitlab' | 'none';
  /** Argo CD or Flux objects that sync the generated base, filled in for this project. */
  readonly gitops?: 'argocd' | 'flux';
  /** The repository's URL, for the GitOps objects (a placeholder to replace otherwise). */
  readonly repoUrl?: string;
  /** Publish the catalog explorer (`itgen site`) to GitHub or GitLab Pages on release tags. */
  readonly pages?: boolean;
}

/** GitHub Pages: the explorer of the catalog at each release tag (and by hand), built from the tag. */
const GITHUB_PAGES = `# The catalog explorer (itgen site) on GitHub Pages, for every release tag vX.Y.Z and by hand:
# a self-contained page to filter, sort and compare the instance types. Settings > Pages > Source:
# GitHub Actions. It builds from the tag's own files, with a token that can write only Pages.
name: itgen-pages
on:
  push:
    tags: ['v*']
  workflow_dispatch:
permissions:
  contents: read
concurrency:
  group: itgen-pages
  cancel-in-progress: false
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: ${ACTIONS.checkout}
        with:
          persist-credentials: false
      - uses: ${ACTIONS.setupNode}
        with:
          node-version: 24
      - run: npm ci
      - run: node_modules/.bin/itgen site --out _site
      - uses: ${ACTIONS.uploadPagesArtifact}
        with:
          path: _site
  deploy:
    needs: build
    runs-on: ubuntu-latest
    permissions:
      pages: write
      id-token: write
    environment:
      name: github-pages
      url: \${{ steps.deployment.outputs.page_url }}
    steps:
      - id: deployment
        uses: ${ACTIONS.deployPages}
`;

/** GitLab Pages: the explorer at each release tag; GitLab publishes the job named pages's public/. */
const GITLAB_PAGES = (stage: string): string => `
# The catalog explorer (itgen site) on GitLab Pages, for every release tag vX.Y.Z: a self-contained
# page to filter, sort and compare the instance types.
pages:
  stage: ${stage}
  image: node:24
  rules:
    - if: $CI_COMMIT_TAG =~ /^v[0-9]/
  script:
    - npm ci
    - node_modules/.bin/itgen site --out public
  artifacts:
    paths: [public]
`;

export interface InitPlan {
  /** Files to write: new ones, and existing ones with itgen's lines merged in. */
  readonly files: OutputFile[];
  /** What was merged into existing files, in words. */
  readonly merged: string[];
  /** Existing files left as they were, and why. */
  readonly kept: string[];
  /** Why init cannot go on; nothing is written when there is one. */
  readonly refused?: string;
}

/** Lines a repository with itgen needs ignored: dependencies and the bundle directory of the README. */
const IGNORED = ['node_modules/', '_build/'];

const GITLAB_CI = (stage: string): string => `# itgen on every merge request and on the default branch: the catalog validates, every VM under
# vms/ is judged against it, and the committed base is what it generates. Included from
# .gitlab-ci.yml (include: [{local: ci/itgen.gitlab-ci.yml}]).
itgen:
  stage: ${stage}
  image: node:24
  rules:
    - if: $CI_PIPELINE_SOURCE == "schedule"
      when: never
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
  script:
    - npm ci
    # The catalogs, and every VM kept under vms/ judged against them as KubeVirt would on apply;
    # in a merge request the release lock is held to the one its target branch published.
    - |
      vms=""; if [ -d vms ]; then vms="--vms vms"; fi
      base=""
      if [ -n "$CI_MERGE_REQUEST_TARGET_BRANCH_NAME" ]; then
        git fetch -q origin "$CI_MERGE_REQUEST_TARGET_BRANCH_NAME"
        base="--base origin/$CI_MERGE_REQUEST_TARGET_BRANCH_NAME"
      fi
      # The findings as a Code Quality report (shown on the merge request), and readable in the log.
      if ! node_modules/.bin/itgen validate --format gitlab $base $vms > gl-code-quality-report.json; then
        node_modules/.bin/itgen validate $base $vms
        exit 1
      fi
    - node_modules/.bin/itgen check
  after_script:
    # What the merge request changes (objects, and the VMs under vms/ that use them), for review.
    - |
      if [ -n "$CI_MERGE_REQUEST_TARGET_BRANCH_NAME" ]; then
        git fetch -q origin "$CI_MERGE_REQUEST_TARGET_BRANCH_NAME"
        vms=""; if [ -d vms ]; then vms="--vms vms"; fi
        target="origin/$CI_MERGE_REQUEST_TARGET_BRANCH_NAME"
        node_modules/.bin/itgen diff -o markdown --against "$target" $vms > itgen-review.md || true
      fi
  artifacts:
    when: always
    expose_as: itgen review
    paths: [itgen-review.md]
    reports:
      codequality: gl-code-quality-report.json

# The review as a note on each open merge request. A merge request's pipeline runs the merge
# request's own CI files, so no job of it may hold a token that writes notes; this job runs only in
# a pipeline schedule of the default branch (CI/CD > Schedules, with the variable
# ITGEN_POST_REVIEW=1), its token ITGEN_GITLAB_TOKEN a protected, masked variable (a project access
# token, role Reporter, scope api). A schedule runs every job whose rules match it: give jobs that
# must not run on it \`if: $CI_PIPELINE_SOURCE == "schedule"\` with \`when: never\`.
itgen-review-note:
  stage: ${stage}
  image: node:24
  rules:
    - if: $CI_PIPELINE_SOURCE == "schedule" && $ITGEN_POST_REVIEW == "1" && $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
  script:
    - node ci/itgen-gitlab-note.mjs
`;

/**
 * The stage the GitLab job runs in: GitLab refuses a job whose stage the pipeline does not declare,
 * and a repository that declares its own `stages:` may have no `test`. The default stages have
 * `test`; else a stage whose name says it checks, else the first one.
 */
export function gitlabStage(gitlabCi: string | undefined): string {
  if (gitlabCi === undefined) return 'test';
  const doc = parseDocument(gitlabCi);
  const stages = isMap(doc.contents) ? doc.contents.get('stages') : undefined;
  const list = isSeq(stages) ? stages.items.map((i) => String((i as { value?: unknown }).value ?? i)).filter((x) => x !== '.pre' && x !== '.post') : [];
  if (list.length === 0) return 'test';
  return list.find((x) => x === 'test') ?? list.find((x) => /^(validate|verify|check|lint|test.*)$/i.test(x)) ?? list[0]!;
}

const YAMLLINT = `# yamllint for the files itgen adds (generated descriptions run past 80 characters); the
# repository's other YAML is left to whoever lints it: everything else is ignored here.
extends: default
ignore: |
  /*
  !/catalogs/
  !/generators/
  !/output/
  !/ci/
  !/.github/
  !/kustomization.yaml
  node_modules/
rules:
  line-length: {max: 160}
  truthy: {check-keys: false}
  document-start: disable
`;

/** The names yamllint reads its configuration from, in its order: a repository with one keeps it. */
const YAMLLINT_CONFIGS = ['.yamllint', '.yamllint.yaml', '.yamllint.yml'];

/**
 * Why a repository URL cannot go into the GitOps objects, or undefined: it is written as a YAML
 * double-quoted string, and refused when it holds whitespace or control characters (a line break
 * would inject keys) or is not a URL Git and the GitOps tools read (scheme://..., or user@host:path).
 */
export function repoUrlProblem(url: string): string | undefined {
  if (/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(url)) return '--repo-url holds whitespace or a control character';
  if (url.length > 2048) return '--repo-url is longer than 2,048 characters';
  if (!/^(?:[a-z][a-z0-9+.-]*:\/\/[^/?#]+|[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:)\S*$/i.test(url))
    return '--repo-url is not a repository URL (https://host/org/repo.git, ssh://git@host/org/repo.git or git@host:org/repo.git)';
  return undefined;
}

function gitopsFiles(o: InitOptions): OutputFile[] {
  // A double-quoted YAML scalar (JSON's escapes are YAML's): " #" or a quote cannot cut or extend it.
  const repo = JSON.stringify(o.repoUrl ?? 'https://git.example.com/your-org/your-repo.git');
  const replace = o.repoUrl ? '' : "  # Replace with this repository's URL.\n";
  if (o.gitops === 'argocd') {
    return [
      {
        path: `gitops/argocd/${o.name}-instancetypes.yaml`,
        content: `# Argo CD: the instance types and preferences itgen generates (output/${o.name}).
# Apply after the Application that installs KubeVirt (sync wave 1 after its wave 0): the
# instancetype CRDs exist only once virt-operator has reconciled the KubeVirt CR.
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ${o.name}-instancetypes
  namespace: argocd
  annotations:
    argocd.argoproj.io/sync-wave: "1"
spec:
  project: default
  source:
${replace}    repoURL: ${repo}
    targetRevision: HEAD
    path: output/${o.name}
  destination:
    server: https://kubernetes.default.svc
    # Namespaced kinds without a namespace land here (set \`namespace:\` in the generator to pin one).
    namespace: vm-templates
  syncPolicy:
    automated: {prune: true, selfHeal: true}
    syncOptions: [CreateNamespace=true, SkipDryRunOnMissingResource=true]
    retry: {limit: 5, backoff: {duration: 30s, factor: 2, maxDuration: 5m}}
`,
      },
    ];
  }
  if (o.gitops === 'flux') {
    const ssh = /^(?:ssh:\/\/|[A-Za-z0-9._-]+@)/.test(o.repoUrl ?? '');
    return [
      {
        path: `gitops/flux/${o.name}-instancetypes.yaml`,
        content: `# Flux: the instance types and preferences itgen generates (output/${o.name}).
# Make it depend on the Kustomization that installs KubeVirt (dependsOn), so the instancetype CRDs
# exist before the dry run.
apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata:
  name: ${o.name}-catalog
  namespace: flux-system
spec:
  interval: 5m
${replace.replace('    ', '  ')}  url: ${repo}
${ssh ? '  # An ssh URL needs the deploy key: flux bootstrap keeps it in the secret flux-system.\n  secretRef: {name: flux-system}\n' : ''}  ref: {branch: main}
  ignore: |
    /*
    !/output/
---
apiVersion: v1
kind: Namespace
metadata:
  name: vm-templates
---
${fluxKustomization(o, { kind: 'GitRepository', name: `${o.name}-catalog` })}`,
      },
    ];
  }
  return [];
}

/** The Flux Kustomization that applies the base, reading `source`. */
function fluxKustomization(o: InitOptions, source: { readonly kind: string; readonly name: string; readonly namespace?: string | undefined }): string {
  const ref = `{kind: ${JSON.stringify(source.kind)}, name: ${JSON.stringify(source.name)}${source.namespace ? `, namespace: ${JSON.stringify(source.namespace)}` : ''}}`;
  return `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: ${o.name}-instancetypes
  namespace: flux-system
spec:
  interval: 10m
  sourceRef: ${ref}
  path: ./output/${o.name}
  prune: true
  # Namespaced kinds without a namespace get this one (Flux refuses them without).
  targetNamespace: vm-templates
  retryInterval: 2m
`;
}

/**
 * How the GitOps objects init was asked for fit what the repository already syncs:
 * - something already applies the base (a Flux Kustomization or Argo CD Application over the root
 *   kustomization.yaml, which init makes list the base): nothing more is written, and init says so
 *   (a second owner would deploy the base twice, both pruning);
 * - Flux already reads this repository through a GitRepository: only a Kustomization is written,
 *   reading that source, beside the repository's own Flux Kustomizations (so the Flux that reads
 *   that directory applies it; listed in its kustomization.yaml when it has one);
 * - otherwise the full set under gitops/ (a source of its own, with the deploy key for ssh URLs).
 */
function fitGitops(dir: string, o: InitOptions, rootListsBase: boolean): { files: OutputFile[]; merged: string[]; kept: string[] } {
  const wanted = gitopsFiles(o);
  if (wanted.length === 0) return { files: [], merged: [], kept: [] };
  const docs = loadProjectManifests(dir, ['node_modules', '.git']);
  const syncers = syncersOf(docs);
  const base = `output/${o.name}`;
  const owners = syncers.filter((x) => applies(dir, x.dir, base) || (rootListsBase && applies(dir, x.dir, '.')));
  if (owners.length > 0) {
    const x = owners[0]!;
    return {
      files: [],
      merged: [],
      kept: [
        `${wanted[0]!.path} (not written: ${syncerName(x)} in ${x.file} already applies ${applies(dir, x.dir, base) ? base : `the root kustomization.yaml, which deploys ${base}`}; a second one would deploy it twice)`,
      ],
    };
  }
  if (o.gitops !== 'flux') return { files: wanted, merged: [], kept: [] };
  const source = docs
    .map((d) => d.value as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } })
    .find((v) => v.kind === 'GitRepository' && String(v.apiVersion ?? '').startsWith('source.toolkit.fluxcd.io/') && typeof v.metadata?.name === 'string');
  // The directory Flux itself applies from that source (flux bootstrap's `flux-system`
  // Kustomization over clusters/<name>): a file there is applied with the rest.
  const reading = syncers.filter((x) => x.tool === 'flux' && x.sourceRef?.name === source?.metadata?.name && x.dir !== '.');
  const flux = reading.find((x) => x.name === 'flux-system') ?? reading[0];
  if (!source || !flux) return { files: wanted, merged: [], kept: [] };
  const where = flux.dir;
  const file = `${where === '.' ? '' : `${where}/`}${o.name}-instancetypes.yaml`;
  const content = `# Flux: the instance types and preferences itgen generates (${base}), from the repository's
# own source. Make it depend on the Kustomization that installs KubeVirt (dependsOn).
${fluxKustomization(o, { kind: 'GitRepository', name: source.metadata!.name as string, namespace: typeof source.metadata?.namespace === 'string' ? source.metadata.namespace : undefined })}`;
  if (exists(path.join(dir, file))) return { files: [], merged: [], kept: [`${file} (exists; add a Flux Kustomization for ${base} yourself)`] };
  const out: { files: OutputFile[]; merged: string[]; kept: string[] } = { files: [{ path: file, content }], merged: [], kept: [] };
  // The directory's own kustomization.yaml decides what Flux applies there: list the new file.
  const k = path.posix.join(where, 'kustomization.yaml');
  const current = read(path.join(dir, k));
  if (current !== undefined) {
    const doc = parseDocument(current);
    const resources = isMap(doc.contents) ? doc.contents.get('resources', true) : undefined;
    const edited =
      doc.errors.length === 0 && (resources === undefined || isSeq(resources))
        ? withResource(current, isSeq(resources) ? resources : undefined, path.posix.basename(file))
        : undefined;
    if (edited === undefined) out.kept.push(`${k} (add ${path.posix.basename(file)} to its resources yourself)`);
    else {
      out.files.push({ path: k, content: edited });
      out.merged.push(`${k}: added ${path.posix.basename(file)} to resources`);
    }
  }
  return out;
}

/** Whether anything (a file, a directory, a link) is at this path. */
function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** An existing file of the repository (a regular file, bounded like every read), or undefined. */
export function read(file: string): string | undefined {
  return readRegularFile(file)?.toString('utf8');
}

/**
 * What `itgen init` would do in `dir`.
 *
 * Over 80 lines: what init writes into an existing repository: each file's merge rule in one list.
 */
export function planInit(dir: string, o: InitOptions): InitPlan {
  const base = scaffoldFiles(o).filter((f) => !f.path.startsWith('.github/workflows/') || (o.ci ?? 'github') === 'github');
  const wanted: OutputFile[] = [
    ...base,
    ...((o.ci ?? 'github') === 'gitlab'
      ? [
          {
            path: 'ci/itgen.gitlab-ci.yml',
            content:
              GITLAB_CI(gitlabStage(read(path.join(dir, '.gitlab-ci.yml')))) +
              (o.pages ? GITLAB_PAGES(gitlabStage(read(path.join(dir, '.gitlab-ci.yml')))) : ''),
          },
          { path: 'ci/itgen-gitlab-note.mjs', content: GITLAB_NOTE_SCRIPT },
        ]
      : []),
    ...(o.pages && (o.ci ?? 'github') === 'github' ? [{ path: '.github/workflows/itgen-pages.yaml', content: GITHUB_PAGES }] : []),
    // Only where the repository has no yamllint configuration of its own (which ours would shadow).
    ...(YAMLLINT_CONFIGS.some((n) => exists(path.join(dir, n))) ? [] : [{ path: '.yamllint', content: YAMLLINT }]),
  ];
  const own = [`generators/${o.name}.yaml`, `catalogs/${o.name}/`];
  for (const p of own) {
    try {
      const st = lstatSync(path.join(dir, p.replace(/\/$/, '')));
      const shown = p.replace(/\/$/, '');
      return {
        files: [],
        merged: [],
        kept: [],
        refused: st.isSymbolicLink()
          ? `${shown} is a symbolic link: itgen never writes through one (it could lead out of the repository); remove it or choose another name with --name`
          : `${shown} exists: a project named ${o.name} is already here; choose another with --name`,
      };
    } catch {
      /* absent: good */
    }
  }
  if (o.repoUrl !== undefined) {
    const problem = repoUrlProblem(o.repoUrl);
    if (problem) return { files: [], merged: [], kept: [], refused: problem };
  }
  const files: OutputFile[] = [];
  const merged: string[] = [];
  const kept: string[] = [];
  // Files that exist, or whose path leads out of the directory through a link.
  const inTheWay = new Set(filesInTheWay(dir, wanted).map((f) => f.path));
  for (const f of wanted) {
    // A link on the way (leading out, or nowhere) is never followed: the generator and catalog
    // cannot go elsewhere, so init refuses; anything else is left for the user, who is told why.
    const blocked = blockedPath(dir, f.path);
    if (blocked !== undefined) {
      if (f.path.startsWith('generators/') || f.path.startsWith('catalogs/'))
        return { files: [], merged: [], kept: [], refused: `${blocked}: init writes the generator and catalog only inside the repository` };
      kept.push(`${f.path} (not written: ${blocked})`);
      continue;
    }
    if (!inTheWay.has(f.path)) {
      files.push(f);
      continue;
    }
    const current = read(path.join(dir, f.path));
    if (f.path === '.gitignore' && current !== undefined) {
      const have = new Set(current.split(/\r?\n/).map((l) => l.trim()));
      const missing = IGNORED.filter((l) => !have.has(l) && !have.has(l.replace(/\/$/, '')) && !have.has(`/${l}`));
      if (missing.length === 0) kept.push('.gitignore (it already ignores what itgen needs)');
      else {
        const eol = current.includes('\r\n') ? '\r\n' : '\n';
        const lead = current.endsWith('\n') || current === '' ? '' : eol;
        files.push({ path: '.gitignore', content: `${current}${lead}# itgen${eol}${missing.join(eol)}${eol}` });
        merged.push(`.gitignore: added ${missing.join(', ')}`);
      }
      continue;
    }
    if (f.path === 'kustomization.yaml' && current !== undefined) {
      const entry = `output/${o.name}`;
      const doc = parseDocument(current);
      const resources = isMap(doc.contents) ? doc.contents.get('resources', true) : undefined;
      if (doc.errors.length > 0 || !isMap(doc.contents) || (resources !== undefined && !isSeq(resources))) {
        kept.push(`kustomization.yaml (add ${entry} to its resources yourself: it is not a kustomization itgen can edit)`);
        continue;
      }
      const list = isSeq(resources) ? resources.items.map((i) => String((i as { value?: unknown }).value ?? i)) : [];
      if (list.some((r) => r.replace(/^\.\//, '').replace(/\/$/, '') === entry)) {
        kept.push(`kustomization.yaml (it already deploys ${entry})`);
        continue;
      }
      const edited = withResource(current, isSeq(resources) ? resources : undefined, entry);
      if (edited === undefined) {
        kept.push(`kustomization.yaml (add ${entry} to its resources yourself: itgen cannot add one line to it without rewriting it)`);
        continue;
      }
      files.push({ path: 'kustomization.yaml', content: edited });
      merged.push(`kustomization.yaml: added ${entry} to resources`);
      continue;
    }
    kept.push(`${f.path} (exists${f.path === '.yamllint' ? `; output/${o.name} has lines up to 160 characters` : ''})`);
  }
  // The root kustomization lists the base after init unless it is one init could not edit.
  const rootListsBase = !kept.some((k) => k.startsWith('kustomization.yaml (add '));
  const lintConfig = YAMLLINT_CONFIGS.find((n) => n !== '.yamllint' && exists(path.join(dir, n)));
  if (lintConfig !== undefined && !exists(path.join(dir, '.yamllint')))
    kept.push(`.yamllint (not written: the repository's ${lintConfig} configures yamllint; output/${o.name} has lines up to 160 characters)`);
  const gitops = fitGitops(dir, o, rootListsBase);
  for (const f of gitops.files) {
    const blocked = blockedPath(dir, f.path);
    if (blocked !== undefined) kept.push(`${f.path} (not written: ${blocked})`);
    else if (!gitops.merged.some((m) => m.startsWith(`${f.path}:`)) && exists(path.join(dir, f.path))) kept.push(`${f.path} (exists)`);
    else files.push(f);
  }
  merged.push(...gitops.merged);
  kept.push(...gitops.kept);
  if ((o.ci ?? 'github') === 'gitlab') {
    const included = includedInGitlab(dir, 'ci/itgen.gitlab-ci.yml');
    files.push(...included.files);
    merged.push(...included.merged);
    kept.push(...included.kept);
  }
  return { files, merged, kept };
}

/** `.gitlab-ci.yml` including `file`: written when there is none, one line added to its `include:` when it can be, else said. */
export function includedInGitlab(dir: string, file: string): { files: OutputFile[]; merged: string[]; kept: string[] } {
  const gitlab = read(path.join(dir, '.gitlab-ci.yml'));
  const ask = `.gitlab-ci.yml (add \`include: [{local: ${file}}]\` to it)`;
  if (gitlab === undefined && exists(path.join(dir, '.gitlab-ci.yml'))) return { files: [], merged: [], kept: [ask] };
  if (gitlab === undefined) return { files: [{ path: '.gitlab-ci.yml', content: `include:\n  - local: ${file}\n` }], merged: [], kept: [] };
  if (gitlab.includes(file)) return { files: [], merged: [], kept: [] };
  // One line added to the pipeline the repository has (its `include:` list, or a new one).
  const doc = parseDocument(gitlab);
  const include = isMap(doc.contents) ? doc.contents.get('include', true) : undefined;
  const edited =
    doc.errors.length === 0 && isMap(doc.contents) && (include === undefined || (isSeq(include) && !include.flow))
      ? withResource(gitlab, isSeq(include) ? include : undefined, `local: ${file}`, 'include')
      : undefined;
  if (edited === undefined) return { files: [], merged: [], kept: [ask] };
  return { files: [{ path: '.gitlab-ci.yml', content: edited }], merged: [`.gitlab-ci.yml: included ${file}`], kept: [] };
}

/**
 * Why a path of the repository cannot be written where it is named: a link on the way that leads
 * out of the repository, or nowhere (dangling), or a file where a directory must be; undefined
 * when every existing part of the path is a directory (or, last, anything) inside it.
 */
export function blockedPath(dir: string, rel: string): string | undefined {
  const realDir = realLocation(dir);
  const parts = rel.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const shown = parts.slice(0, i).join('/');
    const p = path.join(dir, ...parts.slice(0, i));
    let st;
    try {
      st = lstatSync(p);
    } catch {
      return undefined; // absent from here on: created inside
    }
    if (st.isSymbolicLink()) {
      let real: string;
      try {
        real = realpathSync.native(p);
      } catch {
        return `\`${shown}\` is a symbolic link that leads nowhere`;
      }
      if (!within(realDir, real)) return `\`${shown}\` leads out of the repository through a symbolic link`;
      st = statSync(p);
    }
    if (i < parts.length && !st.isDirectory()) return `\`${shown}\` is a file, not a directory`;
  }
  return undefined;
}

/**
 * The kustomization text with one resource added, everything else byte for byte as the user wrote
 * it (comments, quotes, flow maps, line endings): a line after the last item of a block sequence,
 * an item before the `]` of a flow sequence, or a `resources:` block at the end. Undefined when the
 * sequence's layout is not one of those (the user is told to add it).
 */
function withResource(text: string, resources: YAMLSeq | undefined, entry: string, key = 'resources'): string | undefined {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (resources === undefined) return `${text}${text === '' || text.endsWith('\n') ? '' : eol}${key}:${eol}  - ${entry}${eol}`;
  const range = resources.range;
  if (!range) return undefined;
  if (resources.flow) {
    const close = text.lastIndexOf(']', range[1]);
    if (close < range[0]) return undefined;
    const inside = text.slice(range[0] + 1, close).trim();
    return `${text.slice(0, close)}${inside === '' ? entry : `, ${entry}`}${text.slice(close)}`;
  }
  const last = resources.items[resources.items.length - 1] as { range?: [number, number, number] } | undefined;
  if (!last?.range) return undefined;
  // The item's `- ` starts its line: its indentation is the sequence's.
  const lineStart = text.lastIndexOf('\n', range[0]) + 1;
  const indent = /^[ ]*/.exec(text.slice(lineStart))![0];
  if (text.slice(lineStart + indent.length, lineStart + indent.length + 2) !== '- ') return undefined;
  // After the line that holds the end of the last item.
  const endOfLast = text.indexOf('\n', Math.max(last.range[1] - 1, 0));
  const at = endOfLast === -1 ? text.length : endOfLast + 1;
  const before = text.slice(0, at);
  return `${before}${before.endsWith('\n') ? '' : eol}${indent}- ${entry}${eol}${text.slice(at)}`;
}
