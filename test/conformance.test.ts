/**
 * Conformance: real tools on the committed output. `kubectl kustomize` must build the root and
 * every kind directory, and every emitted document must validate against KubeVirt's strict JSON
 * Schemas (derived from its OpenAPI document) in test/reference/kubevirt-schemas.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { parseAllDocuments } from 'yaml';
import { REFERENCE, REPO } from './helpers';

const SCHEMA_DIR = path.join(REFERENCE, 'kubevirt-schemas', 'instancetype.kubevirt.io-v1beta1');
const KIND_DIRS = ['VirtualMachineClusterInstancetypes', 'VirtualMachineInstancetypes', 'VirtualMachineClusterPreferences', 'VirtualMachinePreferences'];

function kustomize(dir: string): string {
  return execFileSync('kubectl', ['kustomize', dir], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function validators(): Map<string, (doc: unknown) => string[]> {
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  const out = new Map<string, (doc: unknown) => string[]>();
  for (const file of readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.json'))) {
    const validate = ajv.compile(JSON.parse(readFileSync(path.join(SCHEMA_DIR, file), 'utf8')) as object);
    out.set(path.basename(file, '.json'), (doc) => (validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`)));
  }
  return out;
}

const generated = readdirSync(path.join(REPO, 'output'))
  .filter((d) => !d.startsWith('.'))
  .sort();

describe('kubectl kustomize', () => {
  it('builds the repository root (what Argo CD or Flux apply)', () => {
    const docs = parseAllDocuments(kustomize('.')).map((d) => d.toJS() as { kind: string });
    expect(docs.length).toBeGreaterThan(0);
    expect(new Set(docs.map((d) => d.kind))).toEqual(
      new Set(['VirtualMachineClusterInstancetype', 'VirtualMachineInstancetype', 'VirtualMachineClusterPreference', 'VirtualMachinePreference']),
    );
  });

  it.each(generated.flatMap((g) => KIND_DIRS.map((k) => [g, k] as const)))('builds output/%s/%s', (g, k) => {
    const docs = parseAllDocuments(kustomize(`output/${g}/${k}`))
      .map((d) => d.toJS() as { kind: string } | null)
      .filter((d) => d !== null);
    expect(docs.every((d) => `${d!.kind}s` === k)).toBe(true);
  });
});

describe('strict KubeVirt JSON Schemas', () => {
  const v = validators();
  it.each(generated)('every document of output/%s validates', (g) => {
    const docs = parseAllDocuments(kustomize(`output/${g}`)).map((d) => d.toJS() as { kind: string; metadata: { name: string } });
    expect(docs.length).toBeGreaterThan(0);
    const failures: string[] = [];
    for (const d of docs) {
      const check = v.get(d.kind);
      if (!check) {
        failures.push(`${d.kind}/${d.metadata.name}: no schema for kind`);
        continue;
      }
      for (const e of check(d)) failures.push(`${d.kind}/${d.metadata.name}: ${e}`);
    }
    expect(failures).toEqual([]);
  });

  it('rejects a broken document (the check can fail)', () => {
    const check = v.get('VirtualMachineClusterInstancetype')!;
    expect(
      check({
        apiVersion: 'instancetype.kubevirt.io/v1beta1',
        kind: 'VirtualMachineClusterInstancetype',
        metadata: { name: 'x' },
        spec: { cpu: { guest: 1, dedicatedCPUPlacment: true }, memory: { guest: '1Gi' } },
      }),
    ).not.toEqual([]);
  });
});

// .ci/run installs yamllint (a Debian package) and sets ITGEN_REQUIRE_YAMLLINT, so CI always
// lints; on a machine without it the suite says it skipped these tests.
const hasYamllint = spawnSync('yamllint', ['--version'], { encoding: 'utf8' }).status === 0;
if (!hasYamllint && process.env['ITGEN_REQUIRE_YAMLLINT']) throw new Error('yamllint is required here: apt-get install yamllint');
const describeLint = hasYamllint ? describe : describe.skip;

describeLint('yamllint (the repository .yamllint)', () => {
  it('finds nothing to say about the generated bases, the root kustomization and the examples', () => {
    const r = spawnSync('yamllint', ['--strict', '--format', 'parsable', 'output', 'kustomization.yaml', 'examples'], { cwd: REPO, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('would complain about a broken file (the check can fail)', () => {
    const r = spawnSync('yamllint', ['--strict', '-'], { cwd: REPO, encoding: 'utf8', input: 'a: 1\na: 2\n' });
    expect(r.status).not.toBe(0);
  });
});
