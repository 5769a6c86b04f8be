import type { z } from 'zod';
import { closest, diag, didYouMean, type Diagnostic } from '../diagnostics';
import { locate, type PathSegment, type SourceDoc } from '../load/source';
import { textVariableNameSchema } from './catalog';
import { familyNameSchema, objectNameSchema, QUANTITY_PARAMS, sizeNameSchema } from './common';
import { QUANTITY_PATTERN } from './manifest';
import { knownKeysAt, recordKeysAt, sameSchema, schemasAt, type AnySchema } from './walk';

export { knownKeysAt };

/**
 * Name schemas get the name diagnostic (IT1206) and a suggestion. Recognised by schema, not by
 * message: an issue is about a name when the schema at its path is one of these.
 */
const NAME_SCHEMAS: readonly AnySchema[] = [familyNameSchema, sizeNameSchema, objectNameSchema, textVariableNameSchema];

function isNameSchema(s: AnySchema): boolean {
  return NAME_SCHEMAS.some((n) => sameSchema(n, s));
}

/** Quantity checks say so in their issue's params (schema/common.ts), or are the API model's quantity pattern. */
function isQuantityIssue(issue: IssueLike): boolean {
  if (issue.code === 'custom') return issue.params?.['format'] === QUANTITY_PARAMS.format;
  return issue.code === 'invalid_format' && issue.pattern === String(QUANTITY_PATTERN);
}

interface IssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
  values?: unknown[];
  expected?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  issues?: IssueLike[];
  errors?: IssueLike[][];
  params?: Record<string, unknown>;
  pattern?: string;
}

/**
 * Validate a document against a strict schema and map every zod issue to a diagnostic
 * positioned at the offending key or value, saying what was expected and what was found.
 */
export function checkAgainst<S extends AnySchema>(
  schema: S,
  src: SourceDoc,
  value: unknown = src.value,
  basePath: readonly PathSegment[] = [],
): { ok: true; data: z.infer<S> } | { ok: false; diagnostics: Diagnostic[] } {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, data: result.data as z.infer<S> };
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  const issues = dedupeBounds(flattenIssues(result.error.issues as unknown as IssueLike[]));
  // `displayname:` is one mistake: report the unknown key with its did-you-mean, not also the missing `displayName`.
  const misspelt = new Map<string, string[]>();
  for (const i of issues) if (i.code === 'unrecognized_keys') misspelt.set(JSON.stringify(i.path), i.keys ?? []);
  for (const issue of issues) {
    if (issue.code === 'invalid_type' || issue.code === 'invalid_union') {
      const parent = JSON.stringify(issue.path.slice(0, -1));
      const key = issue.path[issue.path.length - 1];
      const unknown = misspelt.get(parent);
      if (typeof key === 'string' && unknown && !hasPath(value, issue.path as PathSegment[]) && closest(key, unknown) !== undefined) continue;
    }
    for (const d of issueDiagnostics(issue, schema, src, value, basePath)) {
      // One diagnostic per place and code: zod can report a value twice (int range and our range).
      const key = `${d.code}|${d.location?.line}:${d.location?.col}|${d.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      diagnostics.push(d);
    }
  }
  return { ok: false, diagnostics };
}

/** Over 80 lines: one switch over zod's issue kinds, each turned into a placed diagnostic. */
function issueDiagnostics(issue: IssueLike, schema: AnySchema, src: SourceDoc, value: unknown, basePath: readonly PathSegment[]): Diagnostic[] {
  const rel = issue.path as PathSegment[];
  const path = [...basePath, ...rel];
  const dotted = formatPath(path);
  const where = `\`${dotted || '(document)'}\``;
  const found = valueAt(value, rel);
  const present = hasPath(value, rel);
  const at = locate(src, path);
  const last = path[path.length - 1];

  if (issue.code === 'unrecognized_keys') {
    const known = knownKeysAt(schema, rel);
    // A field of the spec one level too high: usually `spec:` indented one level too little.
    const specKeys = known.includes('spec') ? knownKeysAt(schema, [...rel, 'spec']) : [];
    return (issue.keys ?? []).map((key) =>
      diag('IT1202', `unknown key \`${key}\`${dotted ? ` in \`${dotted}\`` : ''}`, locate(src, [...path, key], { key: true }), {
        hint: specKeys.includes(key)
          ? last === 'spec'
            ? `\`${key}\` is a spec field, but this \`spec:\` is read as a name of \`${formatPath(path.slice(0, -1))}\` (its entries are keyed by name): indent \`spec:\` under the entry it belongs to`
            : `\`${key}\` is a spec field: write it under \`${dotted ? `${dotted}.` : ''}spec\``
          : (didYouMean(key, known) ?? (known.length > 0 ? `allowed here: ${known.join(', ')}` : 'nothing may be set here')),
      }),
    );
  }

  if (!present && (issue.code === 'invalid_type' || issue.code === 'invalid_union')) {
    return [
      diag('IT1204', `required key \`${String(last)}\` is missing${path.length > 1 ? ` in \`${formatPath(path.slice(0, -1))}\`` : ''}`, at, {
        hint: `add \`${String(last)}:\``,
      }),
    ];
  }

  const kubevirt = kubevirtWording(issue, path, found, at);
  if (kubevirt) return [kubevirt];

  if (issue.code === 'invalid_key') {
    const inner = issue.issues?.[0];
    const isName = inner?.code === 'invalid_format' && recordKeysAt(schema, rel.slice(0, -1)).some(isNameSchema);
    const key = String(last);
    const known = knownKeysAt(schema, rel.slice(0, -1));
    const hint = didYouMean(key, known) ?? (isName ? nameSuggestion(key) : undefined);
    return [
      diag(
        isName ? 'IT1206' : 'IT1203',
        `key \`${key}\` in \`${formatPath(path.slice(0, -1))}\`: ${inner?.message ?? issue.message}`,
        locate(src, path, { key: true }),
        hint ? { hint } : {},
      ),
    ];
  }

  if (issue.code === 'invalid_union') {
    const branches = (issue.errors ?? []).flat();
    if (branches.some(isQuantityIssue)) return [quantityDiag(where, found, at)];
    const expected = [...new Set(branches.filter((b) => b.code === 'invalid_type').map((b) => describeExpected(b.expected)))];
    if (expected.length > 0) {
      return [
        diag(
          'IT1203',
          `${where}: expected ${expected.join(' or ')}, found ${describeFound(found)}`,
          at,
          typeHint(
            found,
            branches.map((b) => b.expected),
          ),
        ),
      ];
    }
    const first = branches[0];
    return [diag('IT1203', `${where}: ${first?.message ?? issue.message}`, at)];
  }

  if (issue.code === 'invalid_type') {
    return [diag('IT1203', `${where}: expected ${describeExpected(issue.expected)}, found ${describeFound(found)}`, at, typeHint(found, [issue.expected]))];
  }

  if (issue.code === 'too_small' || issue.code === 'too_big') {
    const small = issue.code === 'too_small';
    const bound = Number(small ? issue.minimum : issue.maximum);
    let message: string;
    if (issue.origin === 'string') {
      message = small && bound === 1 ? 'must not be empty' : `has ${String(found).length} characters; ${small ? 'at least' : 'at most'} ${bound} allowed`;
    } else if (issue.origin === 'array' || issue.origin === 'set') {
      message = `has ${Array.isArray(found) ? found.length : 0} item(s); ${small ? 'at least' : 'at most'} ${bound} allowed`;
    } else {
      message = `${describeFound(found)} is ${small ? 'below the minimum' : 'above the maximum'} ${bound}`;
    }
    const isName = last === 'name' && issue.origin === 'string';
    return [diag(isName ? 'IT1206' : 'IT1203', `${where}: ${message}`, at)];
  }

  if (issue.code === 'invalid_format') {
    if (isQuantityIssue(issue)) return [quantityDiag(where, found, at)];
    if (schemasAt(schema, rel).some(isNameSchema)) {
      const hint = typeof found === 'string' ? nameSuggestion(found) : undefined;
      return [diag('IT1206', `${where}: ${JSON.stringify(found)} is not a valid name: ${issue.message}`, at, hint ? { hint } : {})];
    }
    return [diag('IT1203', `${where}: ${JSON.stringify(found)}: ${issue.message}`, at)];
  }

  if (issue.code === 'invalid_value' && Array.isArray(issue.values)) {
    const values = issue.values.map(String);
    if (values.length === 1) {
      return [diag('IT1203', `${where}: expected \`${values[0]}\`, found ${describeFound(found)}`, at)];
    }
    const hint = typeof found === 'string' ? didYouMean(found, values) : undefined;
    return [
      diag('IT1203', `${where}: ${JSON.stringify(found)} is not one of ${values.map((v) => `\`${v}\``).join(', ')}`, at, hint !== undefined ? { hint } : {}),
    ];
  }

  if (isQuantityIssue(issue)) return [quantityDiag(where, found, at)];
  return [diag('IT1203', `${where}: ${issue.message}`, at)];
}

/**
 * Values that KubeVirt itself rejects get KubeVirt's code and wording even when the catalog schema
 * is what catches them first, so that a reader can search KubeVirt's sources for the message.
 */
function kubevirtWording(issue: IssueLike, path: readonly PathSegment[], found: unknown, at: ReturnType<typeof locate>): Diagnostic | undefined {
  const tail = (...segs: string[]): boolean => segs.every((s, i) => path[path.length - segs.length + i] === s);
  const range = issue.code === 'too_big' || issue.code === 'too_small';
  if (range && tail('memory', 'overcommitPercent') && typeof found === 'number') {
    return diag('IT4001', `spec.memory.overcommitPercent '${found}': must be in range between 0 and 100.`, at, {
      hint: 'overcommitPercent is the share of guest memory not requested from the node',
    });
  }
  if (issue.code === 'too_small' && found === 0 && (tail('cpu') || tail('guest')) && (path[0] === 'sizes' || path[0] === 'overrides')) {
    return diag('IT4012', `\`${formatPath(path)}\`: a size with 0 vCPUs cannot start a VM`, at, { hint: 'give every size at least 1 vCPU' });
  }
  if (issue.code === 'invalid_value' && tail('cpu', 'preferredCPUTopology') && Array.isArray(issue.values)) {
    const hint =
      typeof found === 'string'
        ? didYouMean(
            found,
            issue.values.map(String).filter((v) => !v.startsWith('prefer')),
          )
        : undefined;
    return diag('IT4003', `unknown preferredCPUTopology ${String(found)}`, at, {
      hint: hint ?? 'one of: sockets, cores, threads, spread, any',
    });
  }
  if (issue.code === 'invalid_value' && tail('spreadOptions', 'across') && Array.isArray(issue.values)) {
    const values = issue.values.map(String);
    const hint = typeof found === 'string' ? didYouMean(found, values) : undefined;
    return diag('IT4004', `across ${String(found)} is not supported`, at, { hint: hint ?? `one of: ${values.join(', ')}` });
  }
  return undefined;
}

/** What the user probably meant: lowercase, path separators and other characters turned into `-`. */
function nameSuggestion(name: string): string | undefined {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/(^[-.]+)|([-.]+$)/g, '')
    .replace(/-?\.-?/g, '.');
  return s && s !== name ? `did you mean \`${s}\`?` : undefined;
}

const QUANTITY_SUFFIXES: Readonly<Record<string, string>> = {
  k: 'Ki',
  ki: 'Ki',
  kb: 'Ki',
  kib: 'Ki',
  m: 'Mi',
  mi: 'Mi',
  mb: 'Mi',
  mib: 'Mi',
  g: 'Gi',
  gi: 'Gi',
  gb: 'Gi',
  gib: 'Gi',
  t: 'Ti',
  ti: 'Ti',
  tb: 'Ti',
  tib: 'Ti',
};

function quantityDiag(where: string, found: unknown, at: ReturnType<typeof locate>): Diagnostic {
  let hint = 'a quantity is a number with an optional suffix: Ki, Mi, Gi, Ti (powers of 1024) or k, M, G, T (powers of 1000)';
  if (typeof found === 'string') {
    const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]+)\s*$/.exec(found);
    const suffix = m && Object.hasOwn(QUANTITY_SUFFIXES, m[2]!.toLowerCase()) ? QUANTITY_SUFFIXES[m[2]!.toLowerCase()] : undefined;
    if (m && suffix) hint = `did you mean \`${m[1]}${suffix}\`?`;
  }
  return diag('IT1205', `${where}: ${describeFound(found)} is not a Kubernetes quantity (like \`4Gi\` or \`512Mi\`)`, at, { hint });
}

function describeExpected(expected: string | undefined): string {
  switch (expected) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'int':
      return 'a whole number';
    case 'boolean':
      return 'true or false';
    case 'object':
      return 'a mapping';
    case 'array':
      return 'a list';
    case 'record':
      return 'a mapping';
    default:
      return expected ?? 'something else';
  }
}

function describeFound(found: unknown): string {
  if (found === null) return 'nothing (null)';
  if (typeof found === 'number') {
    if (!Number.isFinite(found)) return 'a number too large to represent';
    return String(found);
  }
  if (typeof found === 'string') return JSON.stringify(found.length > 60 ? `${found.slice(0, 57)}...` : found);
  if (typeof found === 'boolean') return String(found);
  if (Array.isArray(found)) return 'a list';
  if (typeof found === 'object') return 'a mapping';
  return typeof found;
}

function typeHint(found: unknown, expected: readonly (string | undefined)[]): { hint?: string } {
  if (found === null) return { hint: 'an empty value in YAML is null; give a value or remove the key' };
  if (typeof found === 'string' && expected.includes('boolean') && /^(true|false|yes|no|on|off)$/i.test(found)) {
    return { hint: `write \`${/^(true|yes|on)$/i.test(found) ? 'true' : 'false'}\` without quotes` };
  }
  if (typeof found === 'string' && (expected.includes('number') || expected.includes('int')) && /^-?[0-9]+(\.[0-9]+)?$/.test(found.trim())) {
    return { hint: 'write the number without quotes' };
  }
  if (typeof found === 'number' && expected.includes('int')) return { hint: 'use a whole number' };
  if (typeof found === 'number' && !Number.isFinite(found)) return { hint: 'the value overflows; use a realistic number' };
  if (typeof found === 'string' && expected.includes('array')) return { hint: `write a list: [${found}]` };
  if ((typeof found === 'number' || typeof found === 'boolean') && expected.includes('string')) return { hint: `quote it: "${String(found)}"` };
  return {};
}

/** Unions report one list of issues per branch; keep the branch that got furthest. */
function flattenIssues(issues: readonly IssueLike[]): IssueLike[] {
  const out: IssueLike[] = [];
  for (const raw of issues) {
    if (raw.code === 'invalid_union' && raw.errors && raw.errors.length > 0) {
      const branches = raw.errors.map((b) => b.map((i) => ({ ...i, path: [...raw.path, ...i.path] })));
      const deepest = branches.reduce((best, b) => (depth(b) > depth(best) ? b : best));
      if (depth(deepest) > raw.path.length) {
        out.push(...flattenIssues(deepest));
        continue;
      }
    }
    out.push(raw);
  }
  return out;
}

/** Of several range issues on one value keep the tightest: zod checks both the safe-int range and ours. */
function dedupeBounds(issues: readonly IssueLike[]): IssueLike[] {
  const best = new Map<string, IssueLike>();
  const out: IssueLike[] = [];
  for (const i of issues) {
    if (i.code !== 'too_big' && i.code !== 'too_small') {
      out.push(i);
      continue;
    }
    const key = `${i.code}|${JSON.stringify(i.path)}`;
    const prev = best.get(key);
    if (!prev) {
      best.set(key, i);
      out.push(i);
      continue;
    }
    const tighter = i.code === 'too_big' ? Number(i.maximum) < Number(prev.maximum) : Number(i.minimum) > Number(prev.minimum);
    if (tighter) {
      out[out.indexOf(prev)] = i;
      best.set(key, i);
    }
  }
  return out;
}

function depth(issues: IssueLike[]): number {
  return Math.max(0, ...issues.map((i) => i.path.length));
}

function valueAt(value: unknown, path: readonly PathSegment[]): unknown {
  let v: unknown = value;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[String(seg)];
  }
  return v;
}

function hasPath(value: unknown, path: readonly PathSegment[]): boolean {
  let v: unknown = value;
  for (const seg of path) {
    if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, String(seg))) return false;
    v = (v as Record<string, unknown>)[String(seg)];
  }
  return true;
}

export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out ? `.${seg}` : seg;
  }
  return out;
}

/** A misspelt `kind` key (`kin:`, `Kind:`): the key closest to `kind`, if any. */
export function misspeltKey(value: Record<string, unknown>, wanted: string): string | undefined {
  const keys = Object.keys(value).filter((k) => k !== wanted);
  return closest(wanted, keys);
}
