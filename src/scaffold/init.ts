/**
 * `itgen init` in a directory that may already be a repository: the common case is adopting itgen
 * in an existing GitOps repository. What is missing is added; a `.gitignore` gets the lines itgen
 * needs, a root `kustomization.yaml` the generated base in its resources; every other file that
 * exists is left as it was and said so. A generator or catalog of the same name is never touched:
 * that is another project, and init refuses.
 *
 * The CI files it writes are init-templates.ts, its reads and edits of what exists init-files.ts.
 */
import { lstatSync } from '../load/reads';

import path from 'node:path';
import { isMap, isSeq, parseDocument } from 'yaml';
import type { OutputFile } from '../emit/layout';
import { filesInTheWay } from '../emit/write';
import { GITLAB_NOTE_SCRIPT } from './gitlab-note';
import { scaffoldFiles, type ScaffoldOptions } from './index';
import { loadProjectManifests, syncerName, syncersOf } from '../load/manifests';
import { applies } from '../release/deploy';
import { GITHUB_PAGES, GITLAB_PAGES, IGNORED, GITLAB_CI, gitlabStage, YAMLLINT, YAMLLINT_CONFIGS } from './init-templates';
import { exists, read, blockedPath, withResource } from './init-files';
export { read, blockedPath } from './init-files';
export { gitlabStage } from './init-templates';

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

/**
 * Why a repository URL cannot go into the GitOps objects, or undefined: it is written as a YAML
 * double-quoted string, and refused when it holds whitespace or control characters (a line break
 * would inject keys) or is not a URL Git and the GitOps tools read (scheme://..., or
 * user@host:path).
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
