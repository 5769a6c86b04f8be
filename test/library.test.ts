/**
 * The library is the product: every job the README shows on the command line, done from
 * `import { ... } from 'itgen'` (src/index.ts), on a catalog author's project and on a VM owner's
 * repository that holds only VMs, the platform's bundle, a KubeVirt CR and a node dump. And the
 * public surface pinned: a change to it is a decision, made here.
 */
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as itgen from '../src/index';
import * as stages from '../src/stages';
import { DEFAULT_GENERATOR, REFERENCE, REPO, removeDir, scratchProject, TINY_CATALOG } from './helpers';

const VM = (name: string, instancetype: string, preference = 'fedora'): string =>
  `apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata:\n  name: ${name}\nspec:\n  instancetype: {name: ${instancetype}}\n  preference: {name: ${preference}}\n  runStrategy: Always\n  template:\n    spec:\n      domain: {devices: {}}\n`;

const KUBEVIRT_CR =
  'apiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata: {name: kubevirt, namespace: kubevirt}\nspec:\n  configuration:\n    developerConfiguration:\n      featureGates: []\n  workloadUpdateStrategy:\n    workloadUpdateMethods: [LiveMigrate]\n';

/** A VM owner's repository: VMs, the platform's bundle, the cluster's KubeVirt CR and nodes; no generators/. */
function vmRepository(): string {
  const dir = scratchProject({
    'vms/web.yaml': VM('web', 'u1.medium'),
    'vms/db.yaml': VM('db', 'u1.large'),
    'cluster/kubevirt.yaml': KUBEVIRT_CR,
  });
  mkdirSync(path.join(dir, 'platform'));
  copyFileSync(path.join(REFERENCE, 'common-instancetypes', 'common-instancetypes-all-bundle.yaml'), path.join(dir, 'platform', 'bundle.yaml'));
  copyFileSync(path.join(REPO, 'test', 'fixtures', 'fit', 'nodes.yaml'), path.join(dir, 'cluster', 'nodes.yaml'));
  return dir;
}

/** A catalog author's project: the tiny catalog, one generator. */
function catalogProject(memoryPerCPU = '2Gi'): string {
  return scratchProject({
    'generators/default.yaml': DEFAULT_GENERATOR.replace('../catalog', '../catalogs/t').replace('../output', '../output/t'),
    'catalogs/t/catalog.yaml': TINY_CATALOG.replace('memoryPerCPU: 2Gi', `memoryPerCPU: ${memoryPerCPU}`),
  });
}

describe('the VM owner: a repository of VMs and the platform bundle, no generators/', () => {
  let dir: string;
  let project: itgen.Project;
  beforeAll(() => {
    dir = vmRepository();
    project = itgen.openProject({ root: dir, with: ['platform/bundle.yaml'], kubevirt: 'cluster/kubevirt.yaml' });
  });
  afterAll(() => removeDir(dir));

  it('says where the objects came from', () => {
    const c = project.catalogs();
    expect(c.from).toBe('platform/bundle.yaml');
    expect(c.sources.map((s) => s.origin)).toEqual(['files']);
    expect(c.sources[0]!.catalog.instancetypes.some((i) => i.name === 'u1.medium')).toBe(true);
  });

  it('validates the VMs against the bundle (validate FILE --with)', () => {
    expect(itgen.validate(project, { files: ['vms'] }).diagnostics).toEqual([]);
    const typo = scratchProject({ 'vm.yaml': VM('typo', 'u1.meduim') });
    try {
      copyFileSync(path.join(dir, 'platform', 'bundle.yaml'), path.join(typo, 'bundle.yaml'));
      const r = itgen.validate(itgen.openProject({ root: typo, with: ['bundle.yaml'] }), { files: ['vm.yaml'] });
      expect(r.diagnostics.map((d) => [d.code, d.location?.file])).toEqual([
        ['IT8001', 'vm.yaml'],
        ['IT8003', 'vm.yaml'],
      ]);
      expect(r.diagnostics[0]!.hint).toContain('did you mean `u1.medium`?');
    } finally {
      removeDir(typo);
    }
  });

  it('expands a VM, and shows the VMI and launcher pod it starts as (expand --as)', () => {
    const vm = itgen.expandVms(project, { files: ['vms/web.yaml'] });
    expect(vm.diagnostics).toEqual([]);
    expect(vm.outcomes[0]!.vm?.['spec']).toMatchObject({ template: { spec: { domain: { cpu: { sockets: 1 }, memory: { guest: '4Gi' } } } } });
    const pod = itgen.expandVms(project, { files: ['vms/web.yaml'], as: 'pod' });
    expect(pod.outcomes[0]!.memoryOverhead).toMatch(/Mi$/);
    expect(itgen.expandText(pod, 'yaml')).toContain('kind: Pod');
  });

  it('explains, facts, selects and prints the policies of the bundle', () => {
    const explained = itgen.explain(project, 'u1.medium');
    expect(explained.objects[0]!.text).toMatch(/^# VirtualMachineClusterInstancetype u1\.medium: read from platform\/bundle\.yaml:\d+:\d+\n/);
    const facts = itgen.facts(project);
    expect(facts.catalogs[0]!.facts.find((f) => f.name === 'u1.medium')?.requests).toMatchObject({ cpu: '100m' });
    const selected = itgen.select(project, { cpu: '2', memory: '8Gi', families: ['u1'] });
    expect(selected.instancetypes.map((r) => r.name)).toEqual(['u1.large']);
    const policy = itgen.policy(project);
    expect(policy.policies[0]!.written).toBe(false);
    expect(itgen.policyYaml(policy)).toContain('kind: ValidatingAdmissionPolicy');
  });

  it('fits the VMs on the nodes, and plans a resize', () => {
    const fit = itgen.fit(project, { vms: ['vms'], nodes: 'cluster/nodes.yaml' });
    expect(fit.diagnostics).toEqual([]);
    expect(itgen.fitText(fit.fit!)).toContain('web');
    const together = itgen.fit(project, { vms: ['vms'], nodes: 'cluster/nodes.yaml', together: true });
    expect(together.together!.total).toBeGreaterThan(0);
    expect(itgen.togetherText(together.together!)).toMatch(/^\d+ of \d+ VMs placed\n/);
    const resize = itgen.resize(project, { vm: 'vms/web.yaml', to: 'u1.large' });
    // The VM takes KubeVirt's default bridge binding on the pod network: its VMI cannot migrate, so
    // the memory hotplug waits for a restart.
    expect(resize.plan).toMatchObject({ outcome: 'restart', migration: { migratable: false, reason: 'InterfaceNotLiveMigratable', from: 'derived' } });
    expect(itgen.resizeText(resize)).toMatch(/^web: restart: .*cannot migrate VMI which does not use masquerade/);
  });

  it('writes the catalog explorer of the bundle (site --with)', () => {
    const r = itgen.site(project, { out: 'explorer' });
    expect(r.diagnostics).toEqual([]);
    expect(readFileSync(path.join(dir, 'explorer', 'index.html'), 'utf8')).toContain('u1.medium');
  });

  it('a command whose answer is a catalog says what to give when there is none', () => {
    const empty = itgen.openProject({ root: dir });
    expect(itgen.facts(empty).diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['IT1009', 'no generator found and no objects given: add generators/*.yaml, or pass the instance types and preferences with --with FILE'],
    ]);
  });
});

describe('the catalog author: generate, validate, diff, notes, explain from code', () => {
  let dir: string;
  beforeAll(() => {
    dir = catalogProject();
  });
  afterAll(() => removeDir(dir));

  it('generates, then validates, diffs and checks clean', () => {
    const generated = itgen.generate(itgen.openProject({ root: dir }));
    expect([generated.diagnostics, generated.written]).toEqual([[], ['output/t']]);
    const project = itgen.openProject({ root: dir });
    expect(itgen.validate(project).diagnostics).toEqual([]);
    expect(itgen.diff(project).changed).toBe(false);
    expect(itgen.check(itgen.openProject({ root: dir })).diagnostics).toEqual([]);
  });

  it('explains an object with where each field comes from', () => {
    const r = itgen.explain(itgen.openProject({ root: dir }), 'c1.large');
    expect(r.objects.map((o) => o.kind)).toEqual(['VirtualMachineClusterInstancetype', 'VirtualMachineInstancetype']);
    expect(r.objects[0]!.text).toContain('catalogs/t/catalog.yaml:');
  });

  it('releases, then notes what the release holds', () => {
    expect(itgen.release(itgen.openProject({ root: dir }), 'v1.0.0').diagnostics).toEqual([]);
    const notes = itgen.notes(itgen.openProject({ root: dir }));
    expect(notes.generators[0]!.sections[0]!.version).toBe('v1.0.0');
    expect(itgen.notesText(notes)).toContain('c1.large');
  });

  it('diffs a change before it is generated', () => {
    const changed = catalogProject('4Gi');
    try {
      cpSync(path.join(dir, 'output'), path.join(changed, 'output'), { recursive: true });
      const r = itgen.diff(itgen.openProject({ root: changed }));
      expect(r.changed).toBe(true);
      expect(itgen.diffText(r)).toContain('c1.large');
    } finally {
      removeDir(changed);
    }
  });
});

describe('state belongs to the run', () => {
  it('two projects in one process get two answers, each read once', () => {
    const a = catalogProject('2Gi');
    const b = catalogProject('8Gi');
    try {
      const memory = (root: string): string | undefined =>
        itgen.facts(itgen.openProject({ root })).catalogs[0]!.facts.find((f) => f.name === 'c1.small')?.requests?.['memory'];
      const first = memory(a);
      const second = memory(b);
      expect(first).not.toEqual(second);
      expect(memory(a)).toEqual(first);
      // A project reads its inputs once: the answer does not change under it.
      const project = itgen.openProject({ root: a });
      const before = project.catalogs();
      writeFileSync(path.join(a, 'catalogs', 't', 'catalog.yaml'), TINY_CATALOG.replace('memoryPerCPU: 2Gi', 'memoryPerCPU: 16Gi'));
      expect(project.catalogs()).toBe(before);
      expect(memory(a)).not.toEqual(first);
    } finally {
      removeDir(a);
      removeDir(b);
    }
  });
});

describe('the public surface', () => {
  it('`itgen` exports exactly these names: the project, the workflows and their renderers, diagnostics (a change here is a decision: docs/13-library.md)', () => {
    expect(Object.keys(itgen).sort()).toEqual(
      [
        'DIAGNOSTIC_CODES',
        'WARNING_CODES',
        'baseRevision',
        'build',
        'bundle',
        'bundlesDirectory',
        'check',
        'checkProject',
        'checkedSummary',
        'commandReference',
        'commandUsage',
        'diff',
        'diffBundles',
        'diffJson',
        'diffMarkdownComment',
        'diffText',
        'docs',
        'driftText',
        'expandText',
        'expandVms',
        'explain',
        'facts',
        'factsCsv',
        'factsJson',
        'factsText',
        'fit',
        'fitJson',
        'fitMarkdown',
        'fitText',
        'formatDiagnostics',
        'formatGithub',
        'formatGitlab',
        'formatJson',
        'generate',
        'hasErrors',
        'init',
        'jsonSchema',
        'krmFunction',
        'matrix',
        'migratePresets',
        'notes',
        'notesJson',
        'notesText',
        'openProject',
        'policy',
        'policyJson',
        'policyYaml',
        'release',
        'resize',
        'resizeJson',
        'resizeText',
        'select',
        'selectCsv',
        'selectJson',
        'selectText',
        'site',
        'summary',
        'togetherJson',
        'togetherMarkdown',
        'togetherText',
        'usage',
        'validate',
      ].sort(),
    );
  });

  it("`itgen/stages` exports exactly these names: the compiler's stages, for tools built on itgen", () => {
    expect(Object.keys(stages).sort()).toEqual(
      [
        'CATALOG_KINDS',
        'INSTANCETYPE_API_VERSION',
        'KIND_ORDER',
        'KUBEVIRT_DEFAULTS',
        'MANIFEST_KINDS',
        'RULES',
        'admissionMessage',
        'admit',
        'applyNamespace',
        'buildBundles',
        'catalogJsonSchema',
        'catalogOfObjects',
        'checkLock',
        'closest',
        'compatibilityMatrix',
        'compile',
        'compileDocuments',
        'compileGenerator',
        'compileGenerators',
        'currentObjects',
        'defaultVendor',
        'diag',
        'didYouMean',
        'diffObjects',
        'diffTrees',
        'expand',
        'expandDocuments',
        'explainObject',
        'formatDiff',
        'generatorFromDocument',
        'generatorJsonSchema',
        'generatorSchema',
        'layoutBase',
        'loadCatalogFiles',
        'loadGenerator',
        'loadLock',
        'locate',
        'lockSchema',
        'objectStore',
        'parseObjects',
        'parseSource',
        'projectGenerators',
        'readDocuments',
        'readTree',
        'recordRelease',
        'renderCatalog',
        'renderDocs',
        'resolveCatalog',
        'resolveReferences',
        'runRules',
        'scaffoldFiles',
        'selectCatalog',
        'serializeLock',
        'sortDiagnostics',
        'specDigest',
        'strictify',
        'validateManifests',
        'writeFilesAtomic',
        'writeTree',
      ].sort(),
    );
  });
});
