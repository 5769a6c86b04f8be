/**
 * Unit tests of the validation pieces, in memory: the KubeVirt topology arithmetic the pairing
 * rules rely on (checked against the worked examples of kubevirt-api.md, section c1), the
 * Handlebars subset, Kubernetes metadata syntax, and the diagnostics no catalog can produce
 * (IT5002 is a guard against resolver bugs, IT9001 is an itgen bug reported instead of a crash).
 */
import { compile } from '../src/pipeline';
import { hasErrors, sortDiagnostics, diag } from '../src/diagnostics';
import fc from 'fast-check';
import Handlebars from 'handlebars';
import { environmentHelpers, HELPER_NAMES, renderText } from '../src/resolve/text';
import { RULES, runRules, mergeSubjects, type Rule } from '../src/validate';
import { fieldDiag } from '../src/validate/context';
import { labelValueProblem, qualifiedNameProblem } from '../src/validate/rules-api';
import { guestTopology, spreadDivides, spreadRatio } from '../src/validate/rules-kubevirt';
import { admit } from '../src/expand';
import type { JsonObject } from '../src/json';
import type { ResolvedInstancetype } from '../src/resolve/types';
import { removeDir, scratchProject } from './helpers';

const CATALOG = `kind: Catalog
name: t
---
kind: SizeLadder
name: sizes
sizes:
  - {name: small, cpu: 1}
  - {name: large, cpu: 2}
---
kind: Family
name: c
version: 1
displayName: Compute
description: Compute
class: compute
memoryPerCPU: 2Gi
`;

function compileCatalog(text = CATALOG): ReturnType<typeof compile> {
  const dir = scratchProject({
    'generators/t.yaml': 'catalog: ../catalog\noutput: ../out\nscopes: [cluster]\nallowEmpty: [preferences]\n',
    'catalog/catalog.yaml': text,
  });
  try {
    return compile(dir, 'generators/t.yaml');
  } finally {
    removeDir(dir);
  }
}

const spread = (extra: JsonObject = {}): JsonObject => ({ cpu: { preferredCPUTopology: 'spread', ...extra } });

describe('KubeVirt topology arithmetic (kubevirt-api.md c1)', () => {
  it.each([
    [8, undefined, [8, 1, 1]],
    [8, { cpu: { preferredCPUTopology: 'sockets' } }, [8, 1, 1]],
    [8, { cpu: { preferredCPUTopology: 'any' } }, [8, 1, 1]],
    [8, { cpu: { preferredCPUTopology: 'cores' } }, [1, 8, 1]],
    [8, { cpu: { preferredCPUTopology: 'threads' } }, [1, 1, 8]],
    [8, spread(), [4, 2, 1]],
    [8, { ...spread(), preferSpreadSocketToCoreRatio: 4 }, [2, 4, 1]],
    [8, spread({ spreadOptions: { ratio: 4 } }), [2, 4, 1]],
    [8, spread({ spreadOptions: { across: 'CoresThreads' } }), [1, 4, 2]],
    [8, spread({ spreadOptions: { across: 'SocketsCoresThreads' } }), [2, 2, 2]],
    [8, spread({ spreadOptions: { across: 'SocketsCoresThreads', ratio: 4 } }), [1, 4, 2]],
    [6, spread(), [3, 2, 1]],
    [1, { cpu: { preferredCPUTopology: 'threads' } }, [1, 1, 1]],
  ] as const)('%i vCPUs with %j give sockets x cores x threads %j', (guest, spec, expected) => {
    const t = guestTopology(guest, spec as JsonObject | undefined);
    expect([t.sockets, t.cores, t.threads]).toEqual(expected);
  });

  it('applies the spread divisibility check of VM admission', () => {
    expect(spreadDivides(6, spread({ spreadOptions: { across: 'SocketsCoresThreads' } }))).toBe(false);
    expect(spreadDivides(1, spread())).toBe(false);
    expect(spreadDivides(1, spread({ spreadOptions: { ratio: 1 } }))).toBe(true);
    expect(spreadDivides(8, spread({ spreadOptions: { across: 'SocketsCoresThreads', ratio: 4 } }))).toBe(true);
    expect(spreadDivides(4, spread({ spreadOptions: { across: 'SocketsCoresThreads', ratio: 4 } }))).toBe(false);
    expect(spreadDivides(3, { cpu: { preferredCPUTopology: 'cores' } })).toBe(true);
  });

  it('uses spreadOptions.ratio, else a non-zero preferSpreadSocketToCoreRatio, else 2', () => {
    expect(spreadRatio(spread())).toBe(2);
    expect(spreadRatio({ ...spread(), preferSpreadSocketToCoreRatio: 0 })).toBe(2);
    expect(spreadRatio({ ...spread(), preferSpreadSocketToCoreRatio: 3 })).toBe(3);
    expect(spreadRatio({ ...spread({ spreadOptions: { ratio: 4 } }), preferSpreadSocketToCoreRatio: 3 })).toBe(4);
  });
});

describe('rules', () => {
  it('are named, described, and unique', () => {
    const names = RULES.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    for (const r of RULES) {
      expect(r.name).toMatch(/^[a-z0-9-]+$/);
      expect(r.description.length).toBeGreaterThan(10);
    }
  });

  it('IT5002: memory that departs from the family ratio without an override is reported', () => {
    const result = compileCatalog();
    expect(hasErrors(result.diagnostics)).toBe(false);
    const catalog = result.catalog!;
    // A resolver bug would look like this: the spec says 3Gi, the family ratio says 2Gi per vCPU.
    const broken = catalog.instancetypes.map((it): ResolvedInstancetype => (it.cpu === 1 ? { ...it, spec: { ...it.spec, memory: { guest: '3Gi' } } } : it));
    const ctx = { catalog: { ...catalog, instancetypes: broken }, objects: [], generator: result.generator!.config };
    const found = runRules(
      ctx,
      RULES.filter((r) => r.name === 'family-ratio'),
    );
    expect(found.map((d) => d.code)).toEqual(['IT5002']);
    expect(found[0]!.message).toContain('does not match 1 vCPU x 2Gi');
    expect(found[0]!.location?.file).toBe('catalog/catalog.yaml');
  });

  it('IT9001: a rule that throws is an internal error, not a crash', () => {
    const result = compileCatalog();
    const boom: Rule = {
      name: 'boom',
      description: 'always fails, to test the harness',
      check: () => {
        throw new Error('kaput');
      },
    };
    const found = runRules({ catalog: result.catalog!, objects: [], generator: result.generator!.config }, [boom]);
    expect(found).toEqual([diag('IT9001', 'rule `boom` failed: kaput')]);
  });

  it('merges one finding about every size of a family into one diagnostic', () => {
    const result = compileCatalog();
    const [small, large] = [...result.catalog!.instancetypes].sort((a, b) => a.cpu - b.cpu);
    const a = fieldDiag('IT4007', small!, ['memory', 'guest'], 'same finding');
    const b = fieldDiag('IT4007', large!, ['memory', 'guest'], 'same finding');
    const merged = mergeSubjects([a, b]);
    expect(merged).toHaveLength(1);
    expect(merged[0]!.message).toBe('instance types `c1.large`, `c1.small` `spec.memory.guest`: same finding');
    expect(mergeSubjects([a, fieldDiag('IT4007', large!, ['memory', 'guest'], 'another finding')])).toHaveLength(2);
  });

  it('reports an exact duplicate once', () => {
    const d = diag('IT2009', 'x', { file: 'a.yaml', line: 1, col: 1 });
    expect(sortDiagnostics([d, { ...d }])).toHaveLength(1);
  });
});

describe('Kubernetes metadata syntax (apimachinery)', () => {
  it.each(['instancetype.kubevirt.io/cpu', 'openshift.io/display-name', 'iconClass', 'a', 'example.com/a_b.c-d'])('accepts the key %s', (k) => {
    expect(qualifiedNameProblem(k)).toBeUndefined();
  });
  it.each(['-a', 'a-', 'Example.com/x', '/x', 'example.com/', `${'a'.repeat(64)}`, 'a b', 'a/b/c'])('rejects the key %j', (k) => {
    expect(qualifiedNameProblem(k)).toBeDefined();
  });
  it.each(['', 'true', '2Gi', 'general.purpose', 'a_b'])('accepts the label value %j', (v) => {
    expect(labelValueProblem(v)).toBeUndefined();
  });
  it.each(['gold tier', '-x', 'x-', 'a'.repeat(64), 'https://x'])('rejects the label value %j', (v) => {
    expect(labelValueProblem(v)).toBeDefined();
  });
});

describe('free text (Handlebars subset)', () => {
  const ctx = { name: 'c1.large', family: 'c', size: 'large', cpu: 2, variant: undefined };
  it.each([
    ['{{family}} {{size}}', 'c large'],
    ['{{{name}}}', 'c1.large'],
    ['{{#if variant}}-{{variant}}{{else}}plain{{/if}}', 'plain'],
    ['{{#unless variant}}no variant{{/unless}}', 'no variant'],
    ['{{! a comment }}{{cpu}} vCPU', '2 vCPU'],
    ['no braces at all', 'no braces at all'],
    // Adjacent numbers are joined as text, not added (Handlebars' own output would be 4).
    ['{{cpu}}{{cpu}}', '22'],
    ['{{#if name}}{{cpu}}{{cpu}}{{/if}}', '22'],
  ])('renders %j', (template, expected) => {
    expect(renderText(template, ctx)).toEqual({ ok: true, text: expected });
  });
  it.each([
    ['{{constructor}}', /unknown variable `constructor`/],
    ['{{__proto__}}', /unknown variable `__proto__`/],
    ['{{toString}}', /unknown variable `toString`/],
    ['{{famly}}', /did you mean `family`/],
    ['{{name.constructor}}', /reaches into a property/],
    ['{{name.length}}', /reaches into a property/],
    ['{{this}}', /`this` is not available/],
    ['{{.}}', /`this` is not available/],
    ['{{../name}}', /parent scopes/],
    ['{{@root.constructor}}', /data variables/],
    ['{{lookup this "constructor"}}', /helpers are not available/],
    ['{{log "x"}}', /helpers are not available/],
    ['{{#each this}}{{@key}}{{/each}}', /block `#each` is not available/],
    ['{{#with this}}{{constructor.name}}{{/with}}', /block `#with` is not available/],
    ['{{#if (lookup this "x")}}y{{/if}}', /only variables/],
    ['{{> partial}}', /partials are not available/],
    ['{{#> layout}}x{{/layout}}', /partials are not available/],
    ['{{*inline}}', /decorators are not available/],
    ['{{{{raw}}}}{{x}}{{{{/raw}}}}', /block `#raw` is not available/],
    ['{{variant}}', /has no value here; guard it/],
    ['{{name', /Parse error/],
  ])('rejects %j', (template, message) => {
    const r = renderText(template, ctx);
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.error).toMatch(message);
  });
});

describe('free text without blocks renders as Handlebars renders it', () => {
  it('knows the helpers of its Handlebars environment without loading Handlebars', () => {
    // renderSimple leaves names of helpers to Handlebars; it must know the same ones the environment has.
    expect([...HELPER_NAMES].sort()).toEqual(environmentHelpers().sort());
  });

  // renderText renders text, comments and {{variable}} without compiling; Handlebars compiled with
  // the same options is the reference, on whitespace control (~), standalone comments, triple
  // stashes, numbers and empty values.
  const reference = Handlebars.create();
  const ctx = { name: 'c1.large', family: 'c', size: '', cpu: 2, ratio: 0.5 };
  const piece = fc.oneof(
    fc.constantFrom(
      '{{name}}',
      '{{{family}}}',
      '{{size}}',
      '{{cpu}}',
      '{{~ratio~}}',
      '{{~name}}',
      '{{family~}}',
      '{{! note }}',
      '{{!-- a }} b --}}',
      '{{~! trimmed ~}}',
      '{{ name }}',
      '{{\n  size\t}}',
      '{{{name}}}}',
      '{{cpu}}}',
    ),
    fc.constantFrom(' ', '\n', '  \n', '\t', '-', 'x', '\r\n', ' \\{{name}}', '{', '}', '\\'),
    fc.string({ maxLength: 6 }).filter((t) => !/[{}\\]/.test(t)),
  );
  it('for any mix of text, comments and variables', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
        const template = pieces.join('');
        const ours = renderText(template, ctx);
        // Numbers as text: Handlebars joins adjacent variables with `+` (2 and 0.5 would make 2.5).
        const text = Object.fromEntries(Object.entries(ctx).map(([k, v]) => [k, String(v)]));
        let theirs: string | undefined;
        try {
          theirs = reference.compile(template, { strict: true, noEscape: true, knownHelpers: { if: true, unless: true }, knownHelpersOnly: true })(text);
        } catch {
          // Not a template Handlebars reads (`{{cpu}}}`): refused by ours too.
          expect(ours.ok).toBe(false);
          return;
        }
        expect(ours).toEqual({ ok: true, text: theirs });
      }),
      { numRuns: 4000 },
    );
  });
});

describe('one home for the CPU topology rules (kubevirt/topology.ts)', () => {
  it('catalog rules and VM admission agree on every guest x topology x ratio x across', () => {
    let inputs = 0;
    for (const topology of ['sockets', 'cores', 'threads', 'any', 'spread', 'preferSpread', 'preferCores']) {
      for (const ratio of [undefined, 1, 2, 3, 4]) {
        for (const across of [undefined, 'SocketsCores', 'CoresThreads', 'SocketsCoresThreads']) {
          const pref: JsonObject = {
            cpu: {
              preferredCPUTopology: topology,
              ...(ratio !== undefined || across !== undefined
                ? { spreadOptions: { ...(ratio !== undefined ? { ratio } : {}), ...(across ? { across } : {}) } }
                : {}),
            },
          };
          for (let guest = 1; guest <= 48; guest++) {
            inputs++;
            const it: JsonObject = { cpu: { guest }, memory: { guest: '1Gi' } };
            const vm: JsonObject = {
              kind: 'VirtualMachine',
              spec: { instancetype: { name: 'i' }, preference: { name: 'p' }, template: { spec: { domain: { devices: {} } } } },
            };
            const admitted = admit(vm, {
              instancetype: { kind: 'VirtualMachineClusterInstancetype', name: 'i', spec: it },
              preference: { kind: 'VirtualMachineClusterPreference', name: 'p', spec: pref },
            });
            const refusedBySpread = admitted.causes.some((c) => c.field === 'instancetype.spec.cpu.guest');
            expect([topology, ratio, across, guest, spreadDivides(guest, pref)]).toEqual([topology, ratio, across, guest, !refusedBySpread]);
            if (admitted.vm) {
              const cpu = (((admitted.vm['spec'] as JsonObject)['template'] as JsonObject)['spec'] as JsonObject)['domain'] as JsonObject;
              const t = guestTopology(guest, pref);
              expect([topology, ratio, across, guest, cpu['cpu']]).toEqual([
                topology,
                ratio,
                across,
                guest,
                { sockets: t.sockets, cores: t.cores, threads: t.threads },
              ]);
            }
          }
        }
      }
    }
    expect(inputs).toBe(6720);
  });
});
