import { onePerSource } from '../render/manifests';
import { manifestIssues } from '../schema/lazy';
import type { Diagnostic, SourceRange } from '../diagnostics';
import { diag, shownNames } from '../diagnostics';
import { originOf } from '../resolve/leaves';
import {
  DNS_SUBDOMAIN,
  compareRelease,
  fieldSinceFor,
  parseRelease,
  INSTANCETYPE_FIELD_SINCE,
  KUBEVIRT_RELEASES,
  PREFERENCE_FIELD_SINCE,
  PREFERRED_CPU_TOPOLOGY_SINCE,
  targetRange,
} from '../schema/kubevirt-api';
import { locate, type SourceDoc } from '../load/source';
import { MODELLED_RELEASES, NEWEST_RELEASE, sameMinor } from '../kubevirt/release-names';

import { getPath as get, type Json } from '../json';
import { fieldDiag, memoized, objectDiag, type ObjectRuleContext, type Rule, type RuleObject } from './context';

/** Spec paths of a JSON value in FIELD_SINCE notation (`gpus[].claimName`). */
function specPaths(v: Json, prefix: string, out: Map<string, string[]>, raw: string[]): void {
  if (Array.isArray(v)) {
    for (const item of v) specPaths(item, `${prefix}[]`, out, raw);
    return;
  }
  if (v !== null && typeof v === 'object') {
    for (const k of Object.keys(v)) {
      const p = prefix ? `${prefix}.${k}` : k;
      const r = [...raw, k];
      if (!out.has(p)) out.set(p, r);
      specPaths(v[k]!, p, out, r);
    }
  }
}

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
/** apimachinery's TotalAnnotationSizeLimitB. */
const ANNOTATIONS_MAX_BYTES = 256 * 1024;

/** What apimachinery's IsQualifiedName says about a label or annotation key; undefined when valid. */
export function qualifiedNameProblem(key: string): string | undefined {
  const slash = key.indexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))) {
    return 'prefix part must be a lowercase RFC 1123 subdomain';
  }
  if (name.length === 0 || name.length > 63) return 'name part must be no more than 63 characters and not empty';
  if (!QUALIFIED_NAME.test(name)) {
    return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  }
  return undefined;
}

/** Where a label or annotation key was written: the object's own document, else the generator. */
function writtenAt(o: RuleObject, which: 'labels' | 'annotations', key: string, generatorSrc: SourceDoc | undefined): SourceRange | undefined {
  // A manifest (`validate FILE`): its origin is its metadata.name, and its labels sit beside it.
  const p = o.origin.path;
  if (p.length >= 2 && p[p.length - 1] === 'name' && p[p.length - 2] === 'metadata') {
    const meta = p
      .slice(0, -1)
      .reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[k] : undefined), o.origin.src.value);
    const map = meta !== null && typeof meta === 'object' ? (meta as Record<string, unknown>)[which] : undefined;
    if (map !== null && typeof map === 'object' && Object.prototype.hasOwnProperty.call(map, key))
      return locate(o.origin.src, [...p.slice(0, -1), which, key], { key: true });
  }
  for (const src of [o.origin.src, generatorSrc]) {
    const map = src && (src.value as Record<string, unknown>)[which];
    if (src && map !== null && typeof map === 'object' && Object.prototype.hasOwnProperty.call(map, key)) return locate(src, [which, key], { key: true });
  }
  return undefined;
}

/** What apimachinery's IsValidLabelValue says; undefined when valid. */
export function labelValueProblem(value: string): string | undefined {
  if (value.length > 63) return 'must be no more than 63 characters';
  if (value !== '' && !QUALIFIED_NAME.test(value)) {
    return "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  }
  return undefined;
}

/** The newest release any field or value of the model arrived in. */
const NEWEST_SINCE = [
  ...Object.values(INSTANCETYPE_FIELD_SINCE),
  ...Object.values(PREFERENCE_FIELD_SINCE),
  ...Object.values(PREFERRED_CPU_TOPOLOGY_SINCE),
].reduce((a, b) => (compareRelease(a, b) >= 0 ? a : b));

export const API_RULES: readonly Rule<ObjectRuleContext>[] = [
  {
    name: 'manifest-schema',
    description: 'every rendered object matches the strict model of the KubeVirt API (all fields, enums)',
    check: (ctx) => {
      const out: Diagnostic[] = [];
      for (const o of onePerSource(ctx.objects)) {
        for (const issue of manifestIssues(o.manifest.kind, o.manifest)) {
          const path = issue.path.map(String);
          const specPath = path[0] === 'spec' ? path.slice(1) : [];
          const where = path.join('.');
          if (path[0] === 'spec') {
            // An unknown key is placed at the key itself when there is one.
            const keys = issue.code === 'unrecognized_keys' ? (issue as { keys: string[] }).keys : [];
            const at = keys.length === 1 && originOf(o.source.leaves, [...specPath, keys[0]!]) !== undefined ? [...specPath, keys[0]!] : specPath;
            out.push(fieldDiag('IT3001', o.source, at, `${issue.message}${keys.length > 0 ? ` (${keys.join(', ')})` : ''}`));
          } else {
            out.push(
              objectDiag('IT3001', o.source, `\`${where}\`: ${issue.message}`, { hint: 'names, labels and annotations must be valid Kubernetes metadata' }),
            );
          }
        }
      }
      return out;
    },
  },
  {
    name: 'kubernetes-metadata',
    description: 'label and annotation keys and values the API server accepts',
    check: (ctx) => {
      // One diagnostic per problem and place, naming every object it affects (a family label reaches every size).
      const found = new Map<string, { objs: RuleObject[]; message: string; location: SourceRange | undefined; hint: string }>();
      const add = (o: RuleObject, which: 'labels' | 'annotations', key: string | undefined, message: string, hint: string): void => {
        const location = key !== undefined ? writtenAt(o, which, key, ctx.generatorSrc) : undefined;
        // Without a place (a derived label), one report per kind and file: objects of other files are never folded into it.
        const k = `${message}|${location ? `${location.file}:${location.line}:${location.col}` : `${o.kind}|${o.origin.src.file}`}`;
        const entry = found.get(k) ?? { objs: [], message, location, hint };
        entry.objs.push(o);
        found.set(k, entry);
      };
      const hint = 'labels and annotations come from the catalog (`labels:`/`annotations:`), the generator, or are derived from the spec';
      // Every size of a family carries the same keys and most of the same values: each is judged once.
      const keyProblem = memoized(qualifiedNameProblem);
      const valueProblem = memoized(labelValueProblem);
      for (const o of onePerSource(ctx.objects)) {
        for (const [k, v] of Object.entries(o.manifest.metadata.labels ?? {})) {
          const kp = keyProblem(k);
          if (kp) add(o.source, 'labels', k, `metadata.labels: Invalid value: ${JSON.stringify(k)}: ${kp}`, hint);
          // A value still holding `{{` is a template that failed to render, already reported as IT2009;
          // one that is not a string at all the object schema reports.
          const vp = typeof v !== 'string' || v.includes('{{') ? undefined : valueProblem(v);
          if (vp)
            add(
              o.source,
              'labels',
              k,
              `metadata.labels: Invalid value: ${JSON.stringify(v.length > 70 ? `${v.slice(0, 67)}...` : v)} (label \`${k}\`): ${vp}`,
              hint,
            );
        }
        let size = 0;
        for (const [k, v] of Object.entries(o.manifest.metadata.annotations ?? {})) {
          const kp = keyProblem(k);
          if (kp) add(o.source, 'annotations', k, `metadata.annotations: Invalid value: ${JSON.stringify(k)}: ${kp}`, hint);
          size += Buffer.byteLength(k) + Buffer.byteLength(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
        }
        if (size > ANNOTATIONS_MAX_BYTES) {
          add(
            o.source,
            'annotations',
            undefined,
            `metadata.annotations: Too long: must have at most ${ANNOTATIONS_MAX_BYTES} bytes (found ${size})`,
            'shorten the description or other long annotation values',
          );
        }
      }
      const out: Diagnostic[] = [];
      for (const { objs, message, location, hint: h } of found.values()) {
        const first = objs[0]!;
        const what = `${first.kind === 'instancetype' ? 'instance type' : 'preference'}${objs.length > 1 ? 's' : ''} ${shownNames(objs.map((x) => x.name))}`;
        out.push(location ? diag('IT3001', `${what}: ${message}`, location, { hint: h }) : objectDiag('IT3001', first, message, { hint: h }));
      }
      return out;
    },
  },
  {
    name: 'target-release',
    description: 'no field or value newer than the KubeVirt release the generator targets',
    check: (ctx) => {
      const range = targetRange(ctx.generator.targetKubevirt);
      const target = range.min;
      const parsed = parseRelease(target.startsWith('v') ? target : `v${target}`);
      if (!parsed) return [];
      // A maximum past the releases itgen models is judged as the newest one: said, never clamped in
      // silence (a minimum past them is IT6002, below).
      const beyond = [range.max].filter((b): b is string => b !== undefined && compareRelease(b, NEWEST_RELEASE) > 0 && !sameMinor(b, NEWEST_RELEASE));
      const unmodelled = beyond.map((b) =>
        diag(
          'IT6003',
          `target KubeVirt ${b} is newer than the releases itgen models (${MODELLED_RELEASES.join(', ')}): its VMs are judged as ${NEWEST_RELEASE}'s`,
          ctx.generatorSrc ? locate(ctx.generatorSrc, ['targetKubevirt', 'max']) : undefined,
          { severity: 'warning', hint: `a newer itgen models newer releases; until then, ${NEWEST_RELEASE}'s rules stand in for ${b}'s` },
        ),
      );
      // Fields arrive with minor releases: a patch release (v1.9.1) serves what its minor serves.
      const t = `v${parsed.major}.${parsed.minor}`;
      const newest = KUBEVIRT_RELEASES[KUBEVIRT_RELEASES.length - 1]!;
      if (compareRelease(t, KUBEVIRT_RELEASES[0]) < 0 || compareRelease(t, newest) > 0) {
        return [
          ...unmodelled,
          diag(
            'IT6002',
            `target KubeVirt ${target} is outside the releases itgen knows (${KUBEVIRT_RELEASES[0]} to ${newest})`,
            ctx.generatorSrc ? locate(ctx.generatorSrc, ['targetKubevirt']) : undefined,
          ),
        ];
      }
      const out: Diagnostic[] = [...unmodelled];
      // A target no field or value is newer than (the newest release, as most catalogs target): nothing to walk.
      if (compareRelease(t, NEWEST_SINCE) >= 0) return out;
      const objects = [...ctx.catalog.instancetypes, ...ctx.catalog.preferences];
      for (const obj of objects) {
        const since = fieldSinceFor(obj.kind);
        const paths = new Map<string, string[]>();
        specPaths(obj.spec, '', paths, []);
        for (const [p, raw] of paths) {
          // Own keys only: a field named `constructor` must not find Object's.
          const release = Object.hasOwn(since, p) ? since[p] : undefined;
          if (release !== undefined && compareRelease(release, t) > 0) {
            // Report the outermost new field only.
            const parent = p.includes('.') ? p.slice(0, p.lastIndexOf('.')) : undefined;
            if (parent !== undefined && Object.hasOwn(since, parent) && compareRelease(since[parent]!, t) > 0) continue;
            out.push(
              fieldDiag(
                'IT6001',
                obj,
                raw.filter((s) => !s.endsWith('[]')),
                `field \`${p}\` was introduced in KubeVirt ${release}, newer than the target ${target}`,
                {
                  hint: `raise \`targetKubevirt\` to ${release.replace(/\.0$/, '')} or drop the field`,
                },
              ),
            );
          }
        }
        if (obj.kind === 'preference') {
          const topo = get(obj.spec, ['cpu', 'preferredCPUTopology']);
          const rel =
            typeof topo === 'string' && Object.hasOwn(PREFERRED_CPU_TOPOLOGY_SINCE, topo)
              ? (PREFERRED_CPU_TOPOLOGY_SINCE as Record<string, string | undefined>)[topo]
              : undefined;
          if (rel !== undefined && compareRelease(rel, t) > 0) {
            out.push(
              fieldDiag(
                'IT6001',
                obj,
                ['cpu', 'preferredCPUTopology'],
                `value \`${String(topo)}\` is accepted from KubeVirt ${rel}, newer than the target ${target}`,
                {
                  hint: `before v1.4 KubeVirt knows only the long forms: write \`prefer${String(topo).charAt(0).toUpperCase()}${String(topo).slice(1)}\`${compareRelease(PREFERRED_CPU_TOPOLOGY_SINCE[`prefer${String(topo).charAt(0).toUpperCase()}${String(topo).slice(1)}` as keyof typeof PREFERRED_CPU_TOPOLOGY_SINCE] ?? 'v1.0.0', t) > 0 ? ' (itself newer than the target)' : ''}, or raise \`targetKubevirt\``,
                },
              ),
            );
          }
        }
      }
      return out;
    },
  },
];
