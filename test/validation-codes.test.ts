/**
 * Every diagnostic code is shown to fire: by a golden fixture test/fixtures/diag-<code>-<slug>/
 * (its input and the diagnostics as the CLI prints them) when input can produce it, otherwise by a
 * named test file. A new code without either fails here. Also: every diagnostic of those fixtures
 * has a location, except the few about the catalog as a whole.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DIAGNOSTIC_CODES, WARNING_CODES, type DiagnosticCode } from '../src/diagnostics';
import { REPO } from './helpers';

const FIXTURES = path.join(REPO, 'test', 'fixtures');

/** Codes no project input can produce, and the test that shows each one instead. */
const SHOWN_ELSEWHERE: Readonly<Partial<Record<DiagnosticCode, { readonly test: string; readonly why: string }>>> = {
  IT5022: {
    test: 'test/template-ship.test.ts',
    why: "the generator's templates are shown with a scratch copy of the upstream catalog (a fixture would copy it)",
  },
  IT5023: {
    test: 'test/template-ship.test.ts',
    why: "the generator's templates are shown with a scratch copy of the upstream catalog (a fixture would copy it)",
  },
  IT8208: { test: 'test/migrate-templates.test.ts', why: 'about OpenShift Templates given to itgen migrate templates, not catalog input' },
  IT8209: { test: 'test/migrate-templates.test.ts', why: 'about OpenShift Templates given to itgen migrate templates, not catalog input' },
  IT8210: { test: 'test/migrate-templates.test.ts', why: 'about OpenShift Templates given to itgen migrate templates, not catalog input' },
  IT8211: { test: 'test/migrate-templates.test.ts', why: 'about OpenShift Templates given to itgen migrate templates, not catalog input' },
  IT8212: { test: 'test/migrate-templates.test.ts', why: 'about OpenShift Templates given to itgen migrate templates, not catalog input' },
  IT8401: { test: 'test/template-cli.test.ts', why: 'about a VirtualMachineTemplate file given to itgen template process, not catalog input' },
  IT8402: { test: 'test/template-cli.test.ts', why: 'about a VirtualMachineTemplate file given to itgen template process, not catalog input' },
  IT8403: { test: 'test/template-cli.test.ts', why: 'about a VirtualMachineTemplate file given to itgen template process, not catalog input' },
  IT8404: { test: 'test/template-cli.test.ts', why: 'about a VirtualMachineTemplate file judged for a release, not catalog input' },
  IT8405: { test: 'test/template-webhook.test.ts', why: 'about a VirtualMachineTemplate file as applied (virt-template webhook), not catalog input' },
  IT5017: { test: 'test/policy.test.ts', why: "the generator's policy option, with the policy base it writes" },
  IT5018: { test: 'test/policy.test.ts', why: 'a guard no input reaches: shown on a policy broken by hand' },
  IT5019: {
    test: 'test/policy-scale.test.ts',
    why: 'a catalog past the API server object limit (tens of thousands of names) is built in the test, not committed',
  },
  IT8010: { test: 'test/policy.test.ts', why: 'what the policies a project writes do to its VMs, with the policy base' },
  IT1010: {
    test: 'test/hostile-repository.test.ts',
    why: 'a leftover lock that is a directory or a link: a layout of the output directory, not catalog input',
  },
  IT1011: { test: 'test/cli-failures.test.ts', why: 'about the command line (an unknown option, command, -C directory or explain name), not project input' },
  IT2020: {
    test: 'test/catalog-imports.test.ts',
    why: 'catalog imports are shown with scratch projects (a package import needs node_modules, which git ignores)',
  },
  IT2024: { test: 'test/catalog-imports.test.ts', why: 'a package import needs node_modules, which git ignores' },
  IT2025: { test: 'test/catalog-imports.test.ts', why: 'each way a patch can land on nothing, at the patch' },
  IT2023: { test: 'test/catalog-imports.test.ts', why: 'catalog imports are shown with scratch projects' },
  IT2022: { test: 'test/catalog-imports.test.ts', why: 'shown with an imported base, as the adopting team met it' },
  IT2021: { test: 'test/catalog-imports.test.ts', why: 'an import out of the project needs a link or a path outside the fixture' },
  IT5002: { test: 'test/validation-rules.test.ts', why: 'memory is derived from the ratio unless overridden; the rule guards against resolver bugs' },
  IT5011: { test: 'test/gitops-examples.test.ts', why: 'about Flux and Argo CD objects of the project, not catalog input' },
  IT5012: { test: 'test/hostile-pull-request.test.ts', why: 'about the root kustomization, Flux and Argo CD objects of the project, not catalog input' },
  IT5015: { test: 'test/init.test.ts', why: 'about the Flux and Argo CD objects of a repository, not catalog input' },
  IT5014: { test: 'test/authoring.test.ts', why: 'shown with a scratch catalog whose override makes two sizes alike' },
  IT5013: { test: 'test/hostile-pull-request.test.ts', why: 'about a stale base in the project that a deploy path names' },
  IT7001: { test: 'test/e2e-release.test.ts', why: '`itgen check` compares with an output directory, not catalog input' },
  IT7105: { test: 'test/e2e-release.test.ts', why: 'raised by `itgen release --version`' },
  IT7107: { test: 'test/e2e-release.test.ts', why: 'raised by `itgen bundle --version`' },
  IT7109: { test: 'test/lock-history.test.ts', why: 'compares the lock with the one a Git revision published (--base REF)' },
  IT7301: { test: 'test/e2e-release.test.ts', why: 'raised by `itgen diff --against`' },
  IT7302: { test: 'test/e2e-krm.test.ts', why: 'raised by `itgen fn` on a KRM ResourceList' },
  IT7401: { test: 'test/removal-guard.test.ts', why: 'compares with the committed output directory, raised by `itgen generate`' },
  IT8001: { test: 'test/expand-cli.test.ts', why: 'raised by `itgen expand` on VirtualMachine manifests, not catalog input' },
  IT8002: { test: 'test/expand-cli.test.ts', why: 'raised by `itgen expand` on VirtualMachine manifests' },
  IT8003: { test: 'test/expand-cli.test.ts', why: 'raised by `itgen expand` on VirtualMachine manifests' },
  IT8004: { test: 'test/expand-cli.test.ts', why: 'raised by `itgen expand` on VirtualMachine manifests' },
  IT8005: { test: 'test/validate-manifests.test.ts', why: 'raised by `itgen validate FILE` on VirtualMachine manifests' },
  IT8006: { test: 'test/vm-gate.test.ts', why: 'raised by `itgen expand` and `validate` on VirtualMachine manifests' },
  IT8007: { test: 'test/vm-gate.test.ts', why: 'raised by `itgen expand` and `validate` on VirtualMachine manifests' },
  IT8008: { test: 'test/expand-preview.test.ts', why: 'raised by `itgen expand --as vmi|pod` on VirtualMachine manifests' },
  IT8009: { test: 'test/expand-preview.test.ts', why: 'raised by `itgen expand --kubevirt FILE`' },
  IT8012: { test: 'test/vm-owner.test.ts', why: 'raised by `itgen validate FILE` on VirtualMachine manifests' },
  IT8013: { test: 'test/vm-owner.test.ts', why: 'raised by `itgen validate FILE` on VirtualMachine manifests, against the instance types given' },
  IT8014: { test: 'test/vm-owner.test.ts', why: 'raised by `itgen validate FILE` on VirtualMachine manifests, against the DataSources given' },
  IT8015: { test: 'test/vm-owner.test.ts', why: 'raised by `itgen validate FILE` on a stored VirtualMachine whose ControllerRevision is not among the files' },
  IT8301: { test: 'test/review.test.ts', why: 'raised by `itgen diff --vms` on VirtualMachines kept in Git' },
  IT8302: { test: 'test/review.test.ts', why: 'raised by `itgen diff --vms` on VirtualMachines kept in Git' },
  IT8303: { test: 'test/review.test.ts', why: 'raised by `itgen diff --vms` on VirtualMachines kept in Git' },
  IT8201: { test: 'test/migrate-presets.test.ts', why: 'raised by `itgen migrate presets` on preset manifests, not catalog input' },
  IT8202: { test: 'test/migrate-presets.test.ts', why: 'raised by `itgen migrate presets` on preset manifests' },
  IT8203: { test: 'test/migrate-presets.test.ts', why: 'raised by `itgen migrate presets` on VirtualMachine manifests' },
  IT8204: { test: 'test/migrate-presets.test.ts', why: 'raised by `itgen migrate presets` on VirtualMachine manifests' },
  IT8205: { test: 'test/migrate-presets.test.ts', why: 'raised by `itgen migrate presets` on preset manifests' },
  IT8206: { test: 'test/migrate-presets.test.ts', why: 'raised by `itgen migrate presets`: the proof of a migrated VM' },
  IT8207: { test: 'test/migrate-presets.test.ts', why: 'raised by `itgen migrate presets` on VirtualMachineInstance manifests' },
  IT9001: { test: 'test/validation-cli.test.ts', why: 'an internal error: a rule that throws' },
  IT9002: { test: 'test/validation-cli.test.ts', why: 'the output cannot be written' },
};

/** Diagnostics about the catalog as a whole have no single place to point at. */
const WITHOUT_LOCATION: ReadonlySet<string> = new Set(['IT1008', 'IT2008']);

const fixtures = existsSync(FIXTURES)
  ? readdirSync(FIXTURES)
      .filter((d) => /^diag-IT\d{4}-/.test(d))
      .sort()
  : [];
const LINE = /^(?:(\S+):(\d+):(\d+) )?(error|warning) (IT\d{4}) /;

describe('diagnostic codes', () => {
  it.each(Object.keys(DIAGNOSTIC_CODES).sort())('%s is shown by a fixture or a named test', (code) => {
    const own = fixtures.filter((f) => f.startsWith(`diag-${code}-`));
    if (own.length > 0) {
      const text = readFileSync(path.join(FIXTURES, own[0]!, 'expected-diagnostics.txt'), 'utf8');
      expect(text).toMatch(new RegExp(`(error|warning) ${code} `));
      return;
    }
    const elsewhere = SHOWN_ELSEWHERE[code as DiagnosticCode];
    if (!elsewhere)
      throw new Error(`${code} (${DIAGNOSTIC_CODES[code as DiagnosticCode]}) has no fixture test/fixtures/diag-${code}-<slug>/ and is not in SHOWN_ELSEWHERE`);
    expect(readFileSync(path.join(REPO, elsewhere.test), 'utf8')).toContain(code);
  });

  it.each(fixtures)('%s names a known code and every diagnostic in it is placed', (fixture) => {
    const code = fixture.slice('diag-'.length, 'diag-'.length + 6);
    expect(Object.keys(DIAGNOSTIC_CODES)).toContain(code);
    const lines = readFileSync(path.join(FIXTURES, fixture, 'expected-diagnostics.txt'), 'utf8')
      .split('\n')
      .map((l) => LINE.exec(l))
      .filter((m): m is RegExpExecArray => m !== null);
    expect(lines.length).toBeGreaterThan(0);
    for (const m of lines) {
      if (WITHOUT_LOCATION.has(m[5]!)) continue;
      expect([m[5], m[1] !== undefined]).toEqual([m[5], true]);
      expect(existsSync(path.join(FIXTURES, fixture, m[1]!)) || m[1]!.startsWith('..')).toBe(true);
    }
  });

  it('every warning a fixture shows is a code suppressWarnings accepts (WARNING_CODES)', () => {
    const warned = new Set<string>();
    for (const fixture of readdirSync(FIXTURES)) {
      const file = path.join(FIXTURES, fixture, 'expected-diagnostics.txt');
      if (existsSync(file)) for (const m of readFileSync(file, 'utf8').matchAll(/ warning (IT\d{4}) /g)) warned.add(m[1]!);
    }
    expect(warned.size).toBeGreaterThan(3);
    expect([...warned].filter((c) => !WARNING_CODES.has(c as DiagnosticCode))).toEqual([]);
  });

  it('docs/07-validation.md lists every code', () => {
    const readme = readFileSync(path.join(REPO, 'docs', '07-validation.md'), 'utf8');
    const start = readme.indexOf('## Validation\n');
    expect(start).toBeGreaterThanOrEqual(0);
    const end = readme.indexOf('\n## ', start + 1);
    const section = readme.slice(start, end < 0 ? undefined : end);
    const missing = Object.keys(DIAGNOSTIC_CODES).filter((c) => !section.includes(`| ${c} |`) && !(c.startsWith('IT7') && section.includes('| IT7xxx |')));
    expect(missing).toEqual([]);
  });
});
