/**
 * catalogs/common-instancetypes against the upstream bundle it re-expresses: the committed base,
 * built by kustomize, must hold every object of kubevirt/common-instancetypes with the same spec,
 * labels and annotations, apart from the deliberate fixes listed here (and in the catalog's
 * README.md). Any other difference is a bug in the catalog or in itgen.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { compile } from '../src/pipeline';
import { readDirTree, REFERENCE, REPO } from './helpers';

interface K8sObject {
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: unknown;
}

const UPSTREAM_BUNDLE = path.join(REFERENCE, 'common-instancetypes', 'common-instancetypes-all-bundle.yaml');
const OUTPUT = path.join(REPO, 'output', 'common-instancetypes');

/** Fix 1: upstream wraps these URLs in literal quotes and a newline (a block scalar holding a quoted string). */
const QUOTED_URL_ANNOTATIONS = ['openshift.io/documentation-url', 'openshift.io/support-url'] as const;

/** Fix 2: preferences that share a display name upstream get one that says what differs. */
const DISPLAY_NAME_FIXES: Readonly<Record<string, { upstream: string; ours: string }>> = {
  'centos.stream9.desktop': { upstream: 'CentOS Stream 9', ours: 'CentOS Stream 9 Desktop' },
  'centos.stream9.dpdk': { upstream: 'CentOS Stream 9', ours: 'CentOS Stream 9 DPDK' },
  'centos.stream10.desktop': { upstream: 'CentOS Stream 10', ours: 'CentOS Stream 10 Desktop' },
  'rhel.7.desktop': { upstream: 'Red Hat Enterprise Linux 7', ours: 'Red Hat Enterprise Linux 7 Desktop' },
  'rhel.8.desktop': { upstream: 'Red Hat Enterprise Linux 8', ours: 'Red Hat Enterprise Linux 8 Desktop' },
  'rhel.8.dpdk': { upstream: 'Red Hat Enterprise Linux 8', ours: 'Red Hat Enterprise Linux 8 DPDK' },
};

function parseStream(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}

const key = (o: K8sObject): string => `${o.kind}/${o.metadata.name}`;
const isPreference = (o: K8sObject): boolean => o.kind.endsWith('Preference');

/** The upstream object as this catalog means to ship it: upstream with the documented fixes applied. */
function withFixes(o: K8sObject): { expected: K8sObject; fixes: string[] } {
  const annotations = { ...(o.metadata.annotations ?? {}) };
  const fixes: string[] = [];
  for (const k of QUOTED_URL_ANNOTATIONS) {
    const v = annotations[k];
    if (v === undefined) continue;
    const m = /^"(https:\/\/[^"\s]+)"\n$/.exec(v);
    if (m) {
      annotations[k] = m[1]!;
      fixes.push('url');
    }
  }
  const dn = isPreference(o) ? DISPLAY_NAME_FIXES[o.metadata.name] : undefined;
  if (dn !== undefined && annotations['openshift.io/display-name'] === dn.upstream) {
    annotations['openshift.io/display-name'] = dn.ours;
    fixes.push('display-name');
  }
  return { expected: { ...o, metadata: { ...o.metadata, annotations } }, fixes };
}

function differences(ours: K8sObject, expected: K8sObject): string[] {
  const out: string[] = [];
  if (JSON.stringify(sortDeep(ours.spec)) !== JSON.stringify(sortDeep(expected.spec))) out.push('spec');
  for (const field of ['labels', 'annotations'] as const) {
    const a = ours.metadata[field] ?? {};
    const b = expected.metadata[field] ?? {};
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      if (a[k] !== b[k]) out.push(`${field}[${k}]: ${JSON.stringify(a[k])}, upstream ${JSON.stringify(b[k])}`);
    }
  }
  return out;
}

function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

describe('catalogs/common-instancetypes', () => {
  const upstream = parseStream(readFileSync(UPSTREAM_BUNDLE, 'utf8'));
  const built = parseStream(execFileSync('kubectl', ['kustomize', OUTPUT], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));

  it('compiles without diagnostics, and output/common-instancetypes is what it generates', () => {
    const result = compile(REPO, 'generators/common-instancetypes.yaml');
    expect(result.diagnostics).toEqual([]);
    expect(readDirTree(OUTPUT)).toEqual(result.files);
  });

  it('builds, with kubectl kustomize, the same 244 objects as the upstream all-bundle', () => {
    expect(upstream).toHaveLength(244);
    expect(built.map(key).sort()).toEqual(upstream.map(key).sort());
  });

  it('matches every upstream object in spec, labels and annotations, but for the documented fixes', () => {
    const ours = new Map(built.map((o) => [key(o), o] as const));
    const report: string[] = [];
    const fixed = { url: 0, 'display-name': 0 };
    let identical = 0;
    for (const u of upstream) {
      const o = ours.get(key(u));
      const { expected, fixes } = withFixes(u);
      for (const f of fixes) fixed[f as keyof typeof fixed]++;
      const diffs = o === undefined ? ['missing'] : differences(o, expected);
      if (diffs.length === 0) identical++;
      else report.push(`${key(u)}: ${diffs.join('; ')}`);
    }
    console.log(
      `${identical}/${upstream.length} objects identical (${fixed.url / QUOTED_URL_ANNOTATIONS.length} with the URL fix, ${fixed['display-name']} with a display-name fix)`,
    );
    expect(report).toEqual([]);
    expect(identical).toBe(244);
  });

  it('needs each documented fix: upstream really has the quirk, and every preference carries the clean URLs', () => {
    const prefs = upstream.filter(isPreference);
    for (const p of prefs) {
      for (const k of QUOTED_URL_ANNOTATIONS) expect(p.metadata.annotations?.[k]).toMatch(/^"https:\/\/.*"\n$/);
    }
    const byName = new Map(prefs.map((p) => [p.metadata.name, p] as const));
    for (const [name, fix] of Object.entries(DISPLAY_NAME_FIXES)) {
      expect(byName.get(name)?.metadata.annotations?.['openshift.io/display-name']).toBe(fix.upstream);
      // Upstream's name is taken by another preference, which is what IT5003 rejects.
      expect(prefs.some((p) => p.metadata.name !== name && p.metadata.annotations?.['openshift.io/display-name'] === fix.upstream)).toBe(true);
    }
    const names = built.filter((o) => o.kind === 'VirtualMachineClusterPreference').map((o) => o.metadata.annotations?.['openshift.io/display-name']);
    expect(new Set(names).size).toBe(names.length);
  });
});
