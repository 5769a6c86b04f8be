import type { Diagnostic } from '../diagnostics';
import { diag } from '../diagnostics';
import type { Json } from '../resolve/leaves';
import {
  compareRelease,
  fieldSinceFor,
  manifestSchemaFor,
  parseRelease,
  PREFERRED_CPU_TOPOLOGY_SINCE,
  KUBEVIRT_RELEASES,
} from '../schema/manifest';
import { locate } from '../load/source';
import { fieldDiag, get, objectDiag, type Rule } from './context';

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
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
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

/** What apimachinery's IsValidLabelValue says; undefined when valid. */
export function labelValueProblem(value: string): string | undefined {
  if (value.length > 63) return 'must be no more than 63 characters';
  if (value !== '' && !QUALIFIED_NAME.test(value)) {
    return "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
  }
  return undefined;
}

export const API_RULES: readonly Rule[] = [
  {
    name: 'manifest-schema',
    description: 'every rendered object matches the strict model of the KubeVirt API (all fields, enums)',
    check: (ctx) => {
      const out: Diagnostic[] = [];
      const checked = new Set<object>();
      for (const o of ctx.objects) {
        // Twins share metadata and spec; one check per resolved object is enough.
        if (checked.has(o.source)) continue;
        checked.add(o.source);
        const r = manifestSchemaFor(o.manifest.kind).safeParse(o.manifest);
        if (r.success) continue;
        for (const issue of r.error.issues) {
          const path = issue.path.map(String);
          const specPath = path[0] === 'spec' ? path.slice(1) : [];
          const where = path.join('.');
          if (path[0] === 'spec') {
            out.push(fieldDiag('IT3001', o.source, specPath, `${issue.message}${issue.code === 'unrecognized_keys' ? ` (${(issue as { keys: string[] }).keys.join(', ')})` : ''}`));
          } else {
            out.push(objectDiag('IT3001', o.source, `\`${where}\`: ${issue.message}`, { hint: 'names, labels and annotations must be valid Kubernetes metadata' }));
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
      const out: Diagnostic[] = [];
      const checked = new Set<object>();
      for (const o of ctx.objects) {
        if (checked.has(o.source)) continue;
        checked.add(o.source);
        const hint = 'labels and annotations come from the catalog (`labels:`/`annotations:`), the generator, or are derived from the spec';
        for (const [k, v] of Object.entries(o.manifest.metadata.labels ?? {})) {
          const kp = qualifiedNameProblem(k);
          if (kp) out.push(objectDiag('IT3001', o.source, `metadata.labels: Invalid value: ${JSON.stringify(k)}: ${kp}`, { hint }));
          const vp = labelValueProblem(v);
          if (vp) out.push(objectDiag('IT3001', o.source, `metadata.labels: Invalid value: ${JSON.stringify(v.length > 70 ? `${v.slice(0, 67)}...` : v)} (label \`${k}\`): ${vp}`, { hint }));
        }
        let size = 0;
        for (const [k, v] of Object.entries(o.manifest.metadata.annotations ?? {})) {
          const kp = qualifiedNameProblem(k);
          if (kp) out.push(objectDiag('IT3001', o.source, `metadata.annotations: Invalid value: ${JSON.stringify(k)}: ${kp}`, { hint }));
          size += Buffer.byteLength(k) + Buffer.byteLength(v);
        }
        if (size > ANNOTATIONS_MAX_BYTES) {
          out.push(objectDiag('IT3001', o.source, `metadata.annotations: Too long: must have at most ${ANNOTATIONS_MAX_BYTES} bytes (found ${size})`, { hint: 'shorten the description or other long annotation values' }));
        }
      }
      return out;
    },
  },
  {
    name: 'target-release',
    description: 'no field or value newer than the KubeVirt release the generator targets',
    check: (ctx) => {
      const target = ctx.generator.targetKubevirt;
      if (!parseRelease(target.startsWith('v') ? target : `v${target}`)) return [];
      const t = target.startsWith('v') ? target : `v${target}`;
      const newest = KUBEVIRT_RELEASES[KUBEVIRT_RELEASES.length - 1]!;
      if (compareRelease(t, KUBEVIRT_RELEASES[0]) < 0 || compareRelease(t, newest) > 0) {
        return [
          diag('IT6002', `target KubeVirt ${target} is outside the releases itgen knows (${KUBEVIRT_RELEASES[0]} to ${newest})`, ctx.generatorSrc ? locate(ctx.generatorSrc, ['targetKubevirt']) : undefined),
        ];
      }
      const out: Diagnostic[] = [];
      const objects = [...ctx.catalog.instancetypes, ...ctx.catalog.preferences];
      for (const obj of objects) {
        const since = fieldSinceFor(obj.kind);
        const paths = new Map<string, string[]>();
        specPaths(obj.spec, '', paths, []);
        for (const [p, raw] of paths) {
          const release = since[p];
          if (release !== undefined && compareRelease(release, t) > 0) {
            // Report the outermost new field only.
            const parent = p.includes('.') ? p.slice(0, p.lastIndexOf('.')) : undefined;
            if (parent !== undefined && since[parent] !== undefined && compareRelease(since[parent]!, t) > 0) continue;
            out.push(
              fieldDiag('IT6001', obj, raw.filter((s) => !s.endsWith('[]')), `field \`${p}\` was introduced in KubeVirt ${release}, newer than the target ${target}`, {
                hint: `raise \`targetKubevirt\` to ${release.replace(/\.0$/, '')} or drop the field`,
              }),
            );
          }
        }
        if (obj.kind === 'preference') {
          const topo = get(obj.spec, ['cpu', 'preferredCPUTopology']);
          const rel = typeof topo === 'string' ? (PREFERRED_CPU_TOPOLOGY_SINCE as Record<string, string | undefined>)[topo] : undefined;
          if (rel !== undefined && compareRelease(rel, t) > 0) {
            out.push(
              fieldDiag('IT6001', obj, ['cpu', 'preferredCPUTopology'], `value \`${String(topo)}\` is accepted from KubeVirt ${rel}, newer than the target ${target}`),
            );
          }
        }
      }
      return out;
    },
  },
];
