/**
 * VirtualMachineTemplates shipped with a catalog (the generator's `templates:`): one per preference,
 * its INSTANCETYPE default the least specialised instance type the one judge admits and starts with
 * the preference, written to <output>/templates/ as a base of its own, and each template passing
 * `validate` against the base it ships with.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { itgen } from './e2e-helpers';
import { removeDir, scratchProject } from './helpers';

const REPO = path.join(__dirname, '..');
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function project(templates: string): string {
  const dir = scratchProject({});
  dirs.push(dir);
  cpSync(path.join(REPO, 'catalogs', 'common-instancetypes'), path.join(dir, 'catalogs', 'common-instancetypes'), { recursive: true });
  const generator = readFileSync(path.join(REPO, 'generators', 'common-instancetypes.yaml'), 'utf8');
  cpSync(path.join(REPO, 'generators'), path.join(dir, 'generators'), {
    recursive: true,
    filter: (f) => !f.endsWith('.yaml') || f.endsWith('common-instancetypes.yaml'),
  });
  writeFileSync(path.join(dir, 'generators', 'common-instancetypes.yaml'), `${generator}${templates}`);
  return dir;
}

describe("a generator's templates", () => {
  it('ships a template per preference whose default KubeVirt admits: windows.11 gets u1.2xmedium', () => {
    const dir = project('templates:\n  preferences: [windows.11, fedora]\n  families: [u1, o1]\n  namespace: vm-templates\n');
    const r = itgen(dir, 'generate');
    expect(r.stderr).not.toMatch(/ (error|warning) /);
    expect(r.code).toBe(0);
    const base = path.join(dir, 'output', 'common-instancetypes', 'templates');
    const templates = YAML.parseAllDocuments(readFileSync(path.join(base, 'virtualmachinetemplates.yaml'), 'utf8')).map((d) => d.toJS());
    const defaults = Object.fromEntries(
      templates.map((t) => [t.metadata.name, t.spec.parameters.find((p: { name: string }) => p.name === 'INSTANCETYPE').value]),
    );
    expect(defaults['windows.11']).toBe('u1.2xmedium');
    expect(defaults['fedora']).toBe('u1.small');
    expect(templates.every((t) => t.apiVersion === 'template.kubevirt.io/v1beta1' && t.metadata.namespace === 'vm-templates')).toBe(true);
    expect(YAML.parse(readFileSync(path.join(base, 'kustomization.yaml'), 'utf8')).resources).toEqual(['virtualmachinetemplates.yaml']);
    // Each template, processed and judged as a VM file, against the base it ships with.
    const v = itgen(dir, 'validate', 'output/common-instancetypes/templates/virtualmachinetemplates.yaml', '--with', 'output/common-instancetypes');
    expect(v.stderr).not.toMatch(/ error /);
    // The drift check knows the templates base as its own.
    expect(itgen(dir, 'check').code).toBe(0);
  });

  it('records the templates in the release lock, ships them in a bundle of their own, and holds them to the lock', () => {
    const dir = project('templates:\n  preferences: [windows.11]\n  families: [u1]\n');
    expect(itgen(dir, 'generate').code).toBe(0);
    expect(itgen(dir, 'release', '--version', 'v1.0.0').code).toBe(0);
    const lock = YAML.parse(readFileSync(path.join(dir, 'generators', 'common-instancetypes.lock.yaml'), 'utf8')) as {
      objects: { kind: string; name: string }[];
    };
    expect(lock.objects.filter((o) => o.kind === 'VirtualMachineTemplate').map((o) => o.name)).toEqual(['windows.11', 'windows.11.virtio']);
    expect(itgen(dir, 'notes').stdout).toContain('- VirtualMachineTemplate (2):');
    const b = itgen(dir, 'bundle', '--version', 'v1.0.0', '--out', 'bundles');
    expect(b.code).toBe(0);
    const bundle = readFileSync(path.join(dir, 'bundles', 'common-templates-bundle-v1.0.0.yaml'), 'utf8');
    expect(bundle).toContain('kind: VirtualMachineTemplate');
    expect(bundle).toContain('instancetype.kubevirt.io/common-instancetypes-version: v1.0.0');
    expect(readFileSync(path.join(dir, 'bundles', 'common-instancetypes-all-bundle-v1.0.0.yaml'), 'utf8')).not.toContain('VirtualMachineTemplate');
    // A published template never changes in place: a bigger disk is a change the lock refuses.
    const gen = path.join(dir, 'generators', 'common-instancetypes.yaml');
    writeFileSync(gen, `${readFileSync(gen, 'utf8')}  storage: 40Gi\n`);
    const r = itgen(dir, 'generate');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /error IT7101 2 objects published in v1\.0\.0 changed their spec: `windows\.11`, `windows\.11\.virtio` \(VirtualMachineTemplate\)/,
    );
  });

  it("the review's semantic diff shows a template's change field by field", () => {
    const dir = project('templates:\n  preferences: [windows.11]\n  families: [u1]\n');
    expect(itgen(dir, 'generate').code).toBe(0);
    const git = (...args: string[]): string =>
      execFileSync('git', ['-C', dir, '-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { encoding: 'utf8' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'base');
    const gen = path.join(dir, 'generators', 'common-instancetypes.yaml');
    writeFileSync(gen, `${readFileSync(gen, 'utf8')}  storage: 40Gi\n`);
    expect(itgen(dir, 'generate').stderr).not.toMatch(/ error /);
    const d = itgen(dir, 'diff', '--against', 'HEAD');
    expect(d.stdout).toContain(
      'VirtualMachineTemplate:\n  ~ windows.11\n      spec.virtualMachine.spec.dataVolumeTemplates[0].spec.storage.resources.requests.storage: "30Gi" -> "40Gi"',
    );
  });

  it('v1alpha1 when a targeted release predates v1beta1 (v1.8)', () => {
    // The upstream catalog's secex and virtio preferences use fields of v1.9.
    const dir = project('templates:\n  preferences: [fedora]\n  families: [u1]\nexclude:\n  preferences: ["*.secex", "*.virtio"]\n');
    const gen = path.join(dir, 'generators', 'common-instancetypes.yaml');
    writeFileSync(gen, readFileSync(gen, 'utf8').replace('targetKubevirt: v1.9', 'targetKubevirt: v1.8'));
    expect(itgen(dir, 'generate').code).toBe(0);
    const text = readFileSync(path.join(dir, 'output', 'common-instancetypes', 'templates', 'virtualmachinetemplates.yaml'), 'utf8');
    expect(text).toContain('apiVersion: template.kubevirt.io/v1alpha1');
  });

  it('refuses a preference the catalog does not emit (IT5022)', () => {
    const dir = project('templates:\n  preferences: [windows.12]\n');
    const r = itgen(dir, 'generate');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error IT5022 templates: no preference of the catalog is `windows.12`');
  });

  it('says which preference gets no template when no instance type of the families starts it (IT5023)', () => {
    // Medium sizes only: u1.medium has 1 vCPU, and Windows 11 needs 2 (other families' mediums start it).
    const dir = project('include:\n  sizes: [medium]\ntemplates:\n  preferences: [windows.11]\n  families: [u1]\n');
    const r = itgen(dir, 'generate');
    expect(r.stderr).toContain(
      'warning IT5023 templates: KubeVirt starts a VM of the preference `windows.11` with no instance type of the catalog of the families named: no template',
    );
  });
});
