/**
 * The release loop end to end, in temporary Git repositories, through the built CLI: drift check,
 * semantic diff against a commit and a bundle, release bundles verified by `sha256sum -c`, and
 * the release lock refusing in-place changes, silent removals and reused names while accepting a
 * version bump.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { readDirTree, REPO as REPO_ROOT } from './helpers';
import { assertBuilt, commitAll, edit, git, gitProject, itgen, remove, run, writeFiles } from './e2e-helpers';

beforeAll(assertBuilt);

const dirs: string[] = [];
afterAll(() => dirs.forEach(remove));

/** A committed project with its generated base committed too. */
function generated(): string {
  const dir = gitProject();
  dirs.push(dir);
  const r = itgen(dir, 'generate');
  expect(r.stderr).toMatch(/small: wrote 8 objects to output\/small/);
  expect(r.code).toBe(0);
  commitAll(dir, 'catalog and generated base');
  return dir;
}

/** Generated, then released as v1.0.0 and committed. */
function released(): string {
  const dir = generated();
  const r = itgen(dir, 'release', '--version', 'v1.0.0');
  expect(r.stderr).toMatch(/small: release v1\.0\.0: 8 added/);
  expect(r.code).toBe(0);
  commitAll(dir, 'release v1.0.0');
  return dir;
}

describe('itgen check', () => {
  it('passes on a fresh base, then lists files and objects that differ after a catalog edit, writing nothing', () => {
    const dir = generated();
    expect(itgen(dir, 'check').code).toBe(0);
    edit(dir, 'catalogs/small/u1.yaml', 'memoryPerCPU: 2Gi', 'memoryPerCPU: 4Gi');
    const before = readDirTree(path.join(dir, 'output'));
    const r = itgen(dir, 'check');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error IT7001 output\/small\/VirtualMachineClusterInstancetypes\/virtualmachineclusterinstancetypes\.yaml differs/);
    expect(r.stderr).toMatch(/error IT7001 output\/small\/README\.md differs/);
    expect(r.stderr).toMatch(
      /~ u1\.large\n\s+metadata\.labels\["instancetype\.kubevirt\.io\/memory"\]: "4Gi" -> "8Gi"\n\s+spec\.memory\.guest: "4Gi" -> "8Gi"/,
    );
    expect(r.stderr).not.toMatch(/legacy|linux/);
    expect(readDirTree(path.join(dir, 'output'))).toEqual(before);
    expect(git(dir, 'status', '--porcelain')).toBe(' M catalogs/small/u1.yaml\n');
    // A file itgen did not write fails the check too: generate would refuse to replace it.
    writeFiles(dir, { 'output/small/stray.yaml': 'x: 1\n' });
    const stray = itgen(dir, 'check');
    expect(stray.code).toBe(1);
    expect(stray.stderr).toMatch(/IT1009 output `..\/output\/small` is not a base itgen wrote: generating would replace `stray.yaml`/);
  });

  it('reports with --format json and github for CI', () => {
    const dir = generated();
    edit(dir, 'catalogs/small/u1.yaml', 'memoryPerCPU: 2Gi', 'memoryPerCPU: 4Gi');
    const json = JSON.parse(itgen(dir, 'check', '--format', 'json').stdout) as { diagnostics: { code: string }[] };
    expect(json.diagnostics.map((d) => d.code)).toContain('IT7001');
    // Each changed file at its first changed line, with the object it is in.
    const github = itgen(dir, 'check', '--format', 'github').stdout;
    expect(github).toMatch(/^::error file=output\/small\/README\.md,line=\d+,col=1,title=IT7001::output\/small\/README\.md differs/m);
    expect(github).toMatch(
      /^::error file=output\/small\/VirtualMachineClusterInstancetypes\/virtualmachineclusterinstancetypes\.yaml,line=(\d+),col=1,title=IT7001::output\/small\/VirtualMachineClusterInstancetypes\/virtualmachineclusterinstancetypes\.yaml differs from what the catalog generates, first in VirtualMachineClusterInstancetype `u1\.(large|small)`/m,
    );
    expect(github).not.toMatch(/virtualmachineclusterinstancetypes\.yaml,line=1,/);
  });
});

describe('itgen diff', () => {
  it('shows added, removed and changed objects against the previous commit', () => {
    const dir = generated();
    edit(dir, 'catalogs/small/u1.yaml', 'memoryPerCPU: 2Gi', 'memoryPerCPU: 4Gi');
    edit(dir, 'catalogs/small/catalog.yaml', '  - {name: large, cpu: 2}', '  - {name: large, cpu: 2}\n  - {name: xlarge, cpu: 4}');
    edit(dir, 'catalogs/small/preferences.yaml', /---\nkind: Preference\nname: legacy[^]*$/, '');
    // Dropping `legacy` before any release needs saying so (IT7401).
    expect(itgen(dir, 'generate').code).toBe(1);
    expect(itgen(dir, 'generate', '--allow-removals').code).toBe(0);
    commitAll(dir, 'bigger u1, xlarge, no legacy');

    expect(itgen(dir, 'diff').stdout).toBe('no differences\n');
    const r = itgen(dir, 'diff', '--against', 'HEAD~1');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      [
        'VirtualMachineClusterInstancetype:',
        '  ~ u1.large',
        '      metadata.labels["instancetype.kubevirt.io/memory"]: "4Gi" -> "8Gi"',
        '      spec.memory.guest: "4Gi" -> "8Gi"',
        '  ~ u1.small',
        '      metadata.labels["instancetype.kubevirt.io/memory"]: "2Gi" -> "4Gi"',
        '      spec.memory.guest: "2Gi" -> "4Gi"',
        '  + u1.xlarge',
      ].join('\n'),
    );
    expect(r.stdout).toMatch(/VirtualMachineClusterPreference:\n {2}- legacy\n/);
    expect(r.stdout).toMatch(/^2 added, 2 removed, 4 changed$/m);
    expect(itgen(dir, 'diff', '--against', 'HEAD~1', '--exit-code').code).toBe(1);
    expect(itgen(dir, 'diff', '--against', 'HEAD', '--exit-code').code).toBe(0);

    const json = JSON.parse(itgen(dir, 'diff', '--against', 'HEAD~1', '--format', 'json').stdout) as {
      generators: { generator: string; diffs: { kind: string; name: string; change: string; fields: { path: string; before: unknown; after: unknown }[] }[] }[];
    };
    const large = json.generators[0]!.diffs.find((d) => d.kind === 'VirtualMachineInstancetype' && d.name === 'u1.large')!;
    expect(large.fields).toContainEqual({ path: 'spec.memory.guest', before: '4Gi', after: '8Gi' });

    const bad = itgen(dir, 'diff', '--against', 'no-such-ref');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/error IT7301 cannot read output\/small at no-such-ref/);
  });

  it('never reads a committed blob past the input bound: an 80 MB file under output/ is not loaded (its peak memory stays below the size of the blob)', () => {
    const dir = gitProject();
    dirs.push(dir);
    expect(itgen(dir, 'generate').code).toBe(0);
    writeFiles(dir, { 'output/small/VirtualMachinePreferences/virtualmachinepreferences.yaml': `# ${'x'.repeat(80 << 20)}\n` });
    commitAll(dir, 'a huge committed file');
    expect(itgen(dir, 'generate').code).toBe(0);
    // GNU time (Debian's `time`, which .ci/run installs) reports the peak resident set in KiB.
    const r = spawnSync('/usr/bin/time', ['-f', 'peak %M', path.join(REPO_ROOT, 'bin', 'itgen'), 'diff', '--against', 'HEAD'], { cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^2 added, 0 removed, 0 changed$/m);
    const peak = Number(/peak (\d+)/.exec(r.stderr)?.[1]) / 1024;
    // The blob alone is 80 MiB; itgen's run of this diff stays near its usual ~60-90 MiB.
    expect(peak).toBeLessThan(150);
  });

  it('compares against the committed output of a commit that predates the output directory', () => {
    const dir = gitProject();
    dirs.push(dir);
    commitAll(dir, 'catalog only');
    expect(itgen(dir, 'generate').code).toBe(0);
    const r = itgen(dir, 'diff', '--against', 'HEAD');
    expect(r.stdout).toMatch(/^8 added, 0 removed, 0 changed$/m);
  });
});

describe('itgen bundle', () => {
  it('writes the five bundles, named after the generator, each starting with ---, stamped with its version label, verified by sha256sum -c', () => {
    const dir = released();
    const r = itgen(dir, 'bundle', '--version', 'v1.0.0', '--out', 'dist/release');
    expect(r.code).toBe(0);
    const out = path.join(dir, 'dist', 'release');
    expect(readdirSync(out).sort()).toEqual([
      'CHECKSUMS.sha256',
      'small-clusterinstancetypes-bundle-v1.0.0.yaml',
      'small-clusterpreferences-bundle-v1.0.0.yaml',
      'small-instancetypes-all-bundle-v1.0.0.yaml',
      'small-instancetypes-bundle-v1.0.0.yaml',
      'small-preferences-bundle-v1.0.0.yaml',
    ]);
    const check = run(out, 'sha256sum', ['--check', '--strict', 'CHECKSUMS.sha256']);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
    expect(check.stdout.trim().split('\n')).toHaveLength(5);
    const counts: Record<string, number> = {};
    for (const f of readdirSync(out).filter((f) => f.endsWith('.yaml'))) {
      const text = readFileSync(path.join(out, f), 'utf8');
      expect(text.startsWith('---\n')).toBe(true);
      const docs = parseAllDocuments(text).map((d) => d.toJS() as { kind: string; metadata: { labels: Record<string, string> } });
      counts[f] = docs.length;
      for (const d of docs) expect(d.metadata.labels['itgen.dev/small-version']).toBe('v1.0.0');
    }
    expect(counts).toEqual({
      'small-instancetypes-all-bundle-v1.0.0.yaml': 8,
      'small-clusterinstancetypes-bundle-v1.0.0.yaml': 2,
      'small-instancetypes-bundle-v1.0.0.yaml': 2,
      'small-clusterpreferences-bundle-v1.0.0.yaml': 2,
      'small-preferences-bundle-v1.0.0.yaml': 2,
    });
    // A second release's bundles in the same directory: CHECKSUMS.sha256 covers both releases.
    expect(itgen(dir, 'release', '--version', 'v1.1.0').code).toBe(0);
    expect(itgen(dir, 'bundle', '--version', 'v1.1.0', '--out', 'dist/release').code).toBe(0);
    const both = run(out, 'sha256sum', ['--check', '--strict', 'CHECKSUMS.sha256']);
    expect([both.code, both.stdout.trim().split('\n').length]).toEqual([0, 10]);
    // A tampered bundle fails verification.
    writeFiles(out, { 'small-preferences-bundle-v1.0.0.yaml': `${readFileSync(path.join(out, 'small-preferences-bundle-v1.0.0.yaml'), 'utf8')}# tampered\n` });
    expect(run(out, 'sha256sum', ['--check', '--strict', 'CHECKSUMS.sha256']).code).toBe(1);
    // ...and the next bundle refuses to re-record it with its new sum.
    expect(itgen(dir, 'release', '--version', 'v1.2.0').code).toBe(0);
    const refused = itgen(dir, 'bundle', '--version', 'v1.2.0', '--out', 'dist/release');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'error IT7107 dist/release/CHECKSUMS.sha256 records other sums than `small-preferences-bundle-v1.0.0.yaml` now has: changed since bundled',
    );
    expect(readdirSync(out).filter((n) => n.includes('v1.2.0'))).toEqual([]);
  });

  it('takes from an existing CHECKSUMS.sha256 only lines for regular files it can hash to the recorded sum: planted lines and links are dropped', () => {
    const dir = released();
    const out = path.join(dir, 'dist', 'release');
    mkdirSync(path.join(out, 'sub'), { recursive: true });
    const outside = path.join(dir, 'outside.txt');
    writeFileSync(outside, 'secret\n');
    symlinkSync(outside, path.join(out, 'link.yaml'));
    const sum = (text: string): string => createHash('sha256').update(text).digest('hex');
    writeFileSync(
      path.join(out, 'CHECKSUMS.sha256'),
      [`${sum('x')}  .`, `${sum('x')}  ..`, `${sum('x')}  sub`, `${sum('secret\n')}  link.yaml`, 'not a line', `${sum('x')}  missing.yaml`, ''].join('\n'),
    );
    expect(itgen(dir, 'bundle', '--version', 'v1.0.0', '--out', 'dist/release').code).toBe(0);
    const written = readFileSync(path.join(out, 'CHECKSUMS.sha256'), 'utf8');
    expect(
      written
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => l.slice(66)),
    ).toEqual([
      'small-clusterinstancetypes-bundle-v1.0.0.yaml',
      'small-clusterpreferences-bundle-v1.0.0.yaml',
      'small-instancetypes-all-bundle-v1.0.0.yaml',
      'small-instancetypes-bundle-v1.0.0.yaml',
      'small-preferences-bundle-v1.0.0.yaml',
    ]);
    expect(run(out, 'sha256sum', ['--check', '--strict', 'CHECKSUMS.sha256']).code).toBe(0);
    // A CHECKSUMS.sha256 that is a link out of the directory is not read (nor written through).
    const foreign = path.join(dir, 'foreign-sums');
    writeFileSync(foreign, `${sum('secret\n')}  outside-line.yaml\n`);
    rmSync(path.join(out, 'CHECKSUMS.sha256'));
    symlinkSync(foreign, path.join(out, 'CHECKSUMS.sha256'));
    writeFileSync(path.join(out, 'outside-line.yaml'), 'secret\n');
    expect(itgen(dir, 'bundle', '--version', 'v1.0.0', '--out', 'dist/release').code).toBe(0);
    expect(readFileSync(path.join(out, 'CHECKSUMS.sha256'), 'utf8')).not.toContain('outside-line.yaml');
    expect(readFileSync(foreign, 'utf8')).toBe(`${sum('secret\n')}  outside-line.yaml\n`);
  });

  it('refuses to write bundles where itgen replaces or reads files, and writes nothing there', () => {
    const dir = released();
    const before = readdirSync(path.join(dir, 'output', 'small')).sort();
    for (const [out, what] of [
      ['output/small', /is the output of generator `small`/],
      ['output/small/VirtualMachinePreferences', /is inside the output of generator `small`/],
      ['catalogs/small/released', /is inside the catalog of generator `small`/],
      ['generators', /is the generators directory/],
    ] as const) {
      const r = itgen(dir, 'bundle', '--version', 'v1.0.0', '--out', out);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`error IT1010 --out ${out} `);
      expect(r.stderr).toMatch(what);
    }
    // A committed link leads nowhere else either: `_build -> output/small`, `_rel -> catalogs/small`.
    symlinkSync('output/small', path.join(dir, '_build'));
    symlinkSync('catalogs/small', path.join(dir, '_rel'));
    for (const [out, what] of [
      ['_build', /is the output of generator `small` \(through a symbolic link\)/],
      ['_rel/released', /is inside the catalog of generator `small` \(through a symbolic link\)/],
    ] as const) {
      const r = itgen(dir, 'bundle', '--version', 'v1.0.0', '--out', out);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`error IT1010 --out ${out} `);
      expect(r.stderr).toMatch(what);
    }
    expect(readdirSync(path.join(dir, 'output', 'small')).sort()).toEqual(before);
    expect(existsSync(path.join(dir, 'catalogs', 'small', 'released'))).toBe(false);
    expect(itgen(dir, 'check').code).toBe(0);
    expect(itgen(dir, 'validate').code).toBe(0);
  });

  it('diffs the catalogs against a published bundle, ignoring the version label', () => {
    const dir = released();
    expect(itgen(dir, 'bundle', '--version', 'v1.0.0', '--out', 'rel').code).toBe(0);
    expect(itgen(dir, 'diff', '--against', 'rel/small-instancetypes-all-bundle-v1.0.0.yaml').stdout).toBe('no differences\n');
    edit(dir, 'catalogs/small/preferences.yaml', 'displayName: Legacy Linux', 'displayName: Legacy Linux (old)');
    writeFiles(dir, { 'rel/notes.yaml': 'kind: ConfigMap\napiVersion: v1\nmetadata: {name: notes}\n' });
    const empty = itgen(dir, 'diff', '--against', 'rel/notes.yaml');
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/error IT7301 rel\/notes\.yaml holds no instance types or preferences/);
    const r = itgen(dir, 'diff', '--against', 'rel/small-instancetypes-all-bundle-v1.0.0.yaml');
    expect(r.stdout).toMatch(/~ legacy\n\s+metadata\.annotations\["openshift\.io\/display-name"\]: "Legacy Linux" -> "Legacy Linux \(old\)"/);
  });

  it('bundles only the release the lock recorded, with a configurable label and file prefix', () => {
    const dir = released();
    const r = itgen(dir, 'bundle', '--version', 'v1.1.0', '--out', 'rel');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error IT7107 v1\.1\.0 is not the last release recorded in generators\/small\.lock\.yaml \(v1\.0\.0\)/);
    edit(dir, 'generators/small.yaml', 'vendor: example.com', 'vendor: example.com\nbundle: {versionLabel: example.com/catalog-version, filePrefix: example}');
    expect(itgen(dir, 'bundle', '--version', 'v1.0.0', '--out', 'rel').code).toBe(0);
    const all = readFileSync(path.join(dir, 'rel', 'example-instancetypes-all-bundle-v1.0.0.yaml'), 'utf8');
    expect(all).toMatch(/example\.com\/catalog-version: v1\.0\.0/);
    expect(all).not.toMatch(/common-instancetypes-version/);
    expect(run(path.join(dir, 'rel'), 'sha256sum', ['-c', 'CHECKSUMS.sha256']).code).toBe(0);
  });
});

describe('release lock', () => {
  it('refuses a published object changed in place, with the version bump as the hint, and writes nothing', () => {
    const dir = released();
    edit(dir, 'catalogs/small/u1.yaml', 'memoryPerCPU: 2Gi', 'memoryPerCPU: 4Gi');
    const before = readDirTree(path.join(dir, 'output'));
    const r = itgen(dir, 'generate');
    expect(r.code).toBe(1);
    // One report for the family: both sizes, both kinds.
    expect(r.stderr).toMatch(
      /^catalogs\/small\/u1\.yaml:6:15 error IT7101 4 objects published in v1\.0\.0 changed their spec: `u1\.large`, `u1\.small` \(VirtualMachineClusterInstancetype, VirtualMachineInstancetype\)$/m,
    );
    expect(r.stderr.match(/error IT7101/g)).toHaveLength(1);
    expect(r.stderr).toMatch(/note: published spec of `u1\.large` recorded here at generators\/small\.lock\.yaml:\d+:\d+/);
    expect(r.stderr).toMatch(/hint: published objects never change: bump the family version \(u1 -> u2\)/);
    expect(r.stderr).toMatch(/nothing written/);
    expect(readDirTree(path.join(dir, 'output'))).toEqual(before);
    expect(itgen(dir, 'validate').code).toBe(1);
    expect(itgen(dir, 'check').stderr).toMatch(/IT7101/);
  });

  it('refuses a silent removal, and accepts it after a release that shipped the object deprecated', () => {
    const dir = released();
    const dropLegacy = (): void => edit(dir, 'catalogs/small/preferences.yaml', /---\nkind: Preference\nname: legacy[^]*$/, '');
    dropLegacy();
    const r = itgen(dir, 'generate');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^generators\/small\.lock\.yaml:\d+:\d+ error IT7102 `legacy` \(VirtualMachineClusterPreference, VirtualMachinePreference\), published in v1\.0\.0, is gone without having been released deprecated/m,
    );
    expect(r.stderr).toMatch(/mark it deprecated \(with a replacement\) for one release before removing it/);
    git(dir, 'checkout', '--', 'catalogs');

    // Deprecating is allowed (labels change, the spec does not); the release records it.
    edit(dir, 'catalogs/small/preferences.yaml', 'displayName: Legacy Linux', 'displayName: Legacy Linux\ndeprecated: {replacement: linux, since: v1.1.0}');
    expect(itgen(dir, 'generate').code).toBe(0);
    expect(readFileSync(path.join(dir, 'output/small/VirtualMachineClusterPreferences/virtualmachineclusterpreferences.yaml'), 'utf8')).toMatch(
      /instancetype\.kubevirt\.io\/deprecated: "true"\n/,
    );
    expect(readFileSync(path.join(dir, 'output/small/README.md'), 'utf8')).toMatch(/\| `legacy` \| preference \| v1\.1\.0 \| linux \|/);
    // Not yet released deprecated: removal is still refused.
    const early = readFileSync(path.join(dir, 'catalogs/small/preferences.yaml'), 'utf8');
    dropLegacy();
    expect(itgen(dir, 'generate').stderr).toMatch(/IT7102/);
    writeFiles(dir, { 'catalogs/small/preferences.yaml': early });
    commitAll(dir, 'deprecate legacy');
    const rel = itgen(dir, 'release', '--version', 'v1.1.0');
    expect(rel.stderr).toMatch(/release v1\.1\.0: 0 added, 2 newly deprecated, 0 removed/);
    commitAll(dir, 'release v1.1.0');
    expect(readFileSync(path.join(dir, 'generators/small.lock.yaml'), 'utf8')).toMatch(
      /name: legacy\n\s+digest: sha256:[0-9a-f]{64}\n\s+released: v1\.0\.0\n\s+deprecated: v1\.1\.0\n/,
    );

    dropLegacy();
    expect(itgen(dir, 'generate').code).toBe(0);
    commitAll(dir, 'remove legacy');
    expect(itgen(dir, 'release', '--version', 'v1.2.0').stderr).toMatch(/0 added, 0 newly deprecated, 2 removed/);
    expect(readFileSync(path.join(dir, 'generators/small.lock.yaml'), 'utf8')).toMatch(/name: legacy\n(\s+\w+: .*\n)*?\s+removed: v1\.2\.0\n/);
  });

  it('refuses a removed name that returns with a different spec, and accepts it with the same spec', () => {
    const dir = released();
    edit(dir, 'catalogs/small/preferences.yaml', 'displayName: Legacy Linux', 'displayName: Legacy Linux\ndeprecated: {replacement: linux}');
    expect(itgen(dir, 'generate').code).toBe(0);
    commitAll(dir, 'deprecate legacy');
    expect(itgen(dir, 'release', '--version', 'v1.1.0').code).toBe(0);
    const withLegacy = readFileSync(path.join(dir, 'catalogs/small/preferences.yaml'), 'utf8');
    edit(dir, 'catalogs/small/preferences.yaml', /---\nkind: Preference\nname: legacy[^]*$/, '');
    expect(itgen(dir, 'generate').code).toBe(0);
    commitAll(dir, 'remove legacy');
    expect(itgen(dir, 'release', '--version', 'v1.2.0').code).toBe(0);
    commitAll(dir, 'release v1.2.0');

    // `legacy` comes back meaning something else: refused.
    writeFiles(dir, { 'catalogs/small/preferences.yaml': withLegacy.replace('preferredDiskBus: sata', 'preferredDiskBus: virtio') });
    const r = itgen(dir, 'generate');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error IT7103 VirtualMachineClusterPreference `legacy` was removed in v1\.2\.0 and comes back with a different spec/);
    expect(r.stderr).toMatch(/choose a new name, or restore the published spec/);
    // With the spec it was published with, it may return (upstream re-added windows.2k12 this way).
    writeFiles(dir, { 'catalogs/small/preferences.yaml': withLegacy });
    expect(itgen(dir, 'generate').code).toBe(0);
  });

  it("tells a VM owner holding only the bundle a deprecated object's replacement, and a removed name's", () => {
    const dir = released();
    const bundles = path.join(dir, '..', `${path.basename(dir)}-bundles`);
    const owner = path.join(dir, '..', `${path.basename(dir)}-owner`);
    try {
      mkdirSync(owner, { recursive: true });
      writeFileSync(
        path.join(owner, 'vm.yaml'),
        'apiVersion: kubevirt.io/v1\nkind: VirtualMachine\nmetadata: {name: old, namespace: apps}\nspec:\n  runStrategy: Always\n  preference: {name: legacy}\n  template: {spec: {domain: {devices: {}, resources: {requests: {memory: 2Gi}}}}}\n',
      );
      // The catalog changed, generated, committed, released and bundled: the bundle a VM owner receives.
      const shipped = (change: string, version: string): string => {
        expect(itgen(dir, 'generate').code).toBe(0);
        commitAll(dir, change);
        expect(itgen(dir, 'release', '--version', version).code).toBe(0);
        commitAll(dir, `release ${version}`);
        expect(itgen(dir, 'bundle', '--version', version, '--out', bundles).code).toBe(0);
        return path.join(bundles, `small-instancetypes-all-bundle-${version}.yaml`);
      };
      edit(dir, 'catalogs/small/preferences.yaml', 'displayName: Legacy Linux', 'displayName: Legacy Linux\ndeprecated: {replacement: linux}');
      const v11 = shipped('deprecate legacy', 'v1.1.0');
      expect(readFileSync(v11, 'utf8')).toContain('instancetype.kubevirt.io/replacement: linux');
      const deprecated = itgen(owner, 'validate', 'vm.yaml', '--with', v11);
      expect(deprecated.stderr).toMatch(/IT8302 .*`legacy`, which is deprecated[^]*switch to `linux`, its replacement/);

      edit(dir, 'catalogs/small/preferences.yaml', /---\nkind: Preference\nname: legacy[^]*$/, '');
      const v12 = shipped('remove legacy', 'v1.2.0');
      // The replacement records what it replaces; the bundle alone says what became of the name.
      expect(readFileSync(v12, 'utf8')).toContain('instancetype.kubevirt.io/replaces: legacy@v1.2.0');
      const removed = itgen(owner, 'validate', 'vm.yaml', '--with', v12);
      expect(removed.code).toBe(1);
      expect(removed.stderr).toMatch(/it was removed in v1\.2\.0: use `linux` instead/);
    } finally {
      remove(bundles);
      remove(owner);
    }
  });

  it('accepts a version bump: a new family beside the deprecated old one', () => {
    const dir = released();
    writeFiles(dir, {
      'catalogs/small/u2.yaml': `kind: Family
name: u2
displayName: Universal
description: Universal instance types, 4Gi per vCPU
class: general.purpose
memoryPerCPU: 4Gi
`,
    });
    edit(dir, 'catalogs/small/u1.yaml', 'memoryPerCPU: 2Gi', 'memoryPerCPU: 2Gi\ndeprecated: {replacement: u2, since: v1.1.0}');
    const r = itgen(dir, 'generate');
    expect(r.stderr).toBe('small: wrote 12 objects to output/small\n');
    expect(r.code).toBe(0);
    commitAll(dir, 'u2; deprecate u1');
    expect(itgen(dir, 'release', '--version', 'v1.1.0').stderr).toMatch(/release v1\.1\.0: 4 added, 4 newly deprecated, 0 removed, 0 changed/);
    const readme = readFileSync(path.join(dir, 'output/small/README.md'), 'utf8');
    expect(readme).toMatch(/\| `u1\.large` \| instance type \| v1\.1\.0 \| u2\.large \|/);
    // Releases only move forward.
    const again = itgen(dir, 'release', '--version', 'v1.0.5');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/error IT7105 release v1\.0\.5 is not newer than the last release, v1\.1\.0/);
  });

  it('lets a reviewed override through, and records it with its reason at the next release', () => {
    const dir = released();
    edit(dir, 'catalogs/small/u1.yaml', 'memoryPerCPU: 2Gi', 'memoryPerCPU: 4Gi');
    const r = itgen(dir, 'generate', '--format', 'json');
    const digests = (JSON.parse(r.stdout) as { diagnostics: { code: string; hint: string; message: string }[] }).diagnostics
      .filter((d) => d.code === 'IT7101')
      .flatMap((d) =>
        [...d.hint.matchAll(/\{name: ([^,]+), kind: (\w+), allow: change, digest: "(sha256:[0-9a-f]+)"/g)].map((m) => ({
          name: m[1]!,
          kind: m[2]!,
          digest: m[3]!,
        })),
      );
    expect(digests).toHaveLength(4);
    const overrides = digests
      .map((d) => `  - {name: ${d.name}, kind: ${d.kind}, allow: change, digest: "${d.digest}", reason: "CVE-0000-0000 fix, reviewed by ops"}\n`)
      .join('');
    writeFiles(dir, { 'generators/small.lock.yaml': `${readFileSync(path.join(dir, 'generators/small.lock.yaml'), 'utf8')}overrides:\n${overrides}` });
    expect(itgen(dir, 'generate').code).toBe(0);
    commitAll(dir, 'emergency fix');
    expect(itgen(dir, 'release', '--version', 'v1.0.1').stderr).toMatch(/4 changed by override/);
    const lock = readFileSync(path.join(dir, 'generators/small.lock.yaml'), 'utf8');
    expect(lock).not.toMatch(/^overrides:/m);
    expect(lock).toMatch(/changed:\n\s+- release: v1\.0\.1\n\s+from: sha256:[0-9a-f]{64}\n\s+reason: CVE-0000-0000 fix, reviewed by ops\n/);
    expect(itgen(dir, 'check').code).toBe(0);
  });

  it('refuses a release while the committed output is stale', () => {
    const dir = generated();
    edit(dir, 'catalogs/small/u1.yaml', 'memoryPerCPU: 2Gi', 'memoryPerCPU: 4Gi');
    const r = itgen(dir, 'release', '--version', 'v1.0.0');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/IT7001/);
    expect(git(dir, 'status', '--porcelain')).toBe(' M catalogs/small/u1.yaml\n');
  });
});

describe('itgen docs', () => {
  it('rewrites only README.md, which check then accepts', () => {
    const dir = generated();
    writeFiles(dir, { 'output/small/README.md': 'edited by hand\n' });
    expect(itgen(dir, 'check').stderr).toMatch(/output\/small\/README\.md differs/);
    const r = itgen(dir, 'docs');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('small: wrote output/small/README.md\n');
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(itgen(dir, 'check').code).toBe(0);
  });
});
