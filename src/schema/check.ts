import type { z } from 'zod';
import { diag, didYouMean, type Diagnostic, type DiagnosticCode } from '../diagnostics';
import { locate, type PathSegment, type SourceDoc } from '../load/source';

type AnySchema = z.ZodType;

interface ZodDefLike {
  type: string;
  shape?: Record<string, AnySchema>;
  innerType?: AnySchema;
  in?: AnySchema;
  out?: AnySchema;
  element?: AnySchema;
  valueType?: AnySchema;
  options?: AnySchema[];
}

function defOf(schema: AnySchema): ZodDefLike {
  return (schema as unknown as { _zod: { def: ZodDefLike } })._zod.def;
}

/** Object shapes reachable at `path` (unions can offer several). */
export function shapesAt(schema: AnySchema, path: readonly PathSegment[]): Record<string, AnySchema>[] {
  let current: AnySchema[] = [schema];
  const unwrap = (s: AnySchema): AnySchema[] => {
    const d = defOf(s);
    switch (d.type) {
      case 'optional':
      case 'default':
      case 'prefault':
      case 'nullable':
      case 'readonly':
        return d.innerType ? unwrap(d.innerType) : [];
      case 'pipe':
        return d.in ? unwrap(d.in) : [];
      case 'union':
        return (d.options ?? []).flatMap(unwrap);
      default:
        return [s];
    }
  };
  for (const seg of path) {
    const next: AnySchema[] = [];
    for (const s of current.flatMap(unwrap)) {
      const d = defOf(s);
      if (d.type === 'object' && typeof seg === 'string' && d.shape && seg in d.shape) next.push(d.shape[seg]!);
      else if (d.type === 'array' && typeof seg === 'number' && d.element) next.push(d.element);
      else if (d.type === 'record' && d.valueType) next.push(d.valueType);
    }
    current = next;
  }
  return current
    .flatMap(unwrap)
    .map(defOf)
    .filter((d) => d.type === 'object' && d.shape)
    .map((d) => d.shape!);
}

/**
 * Validate a document against a strict schema and map every zod issue to a diagnostic
 * positioned at the offending key or value.
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
  for (const issue of flattenIssues(result.error.issues)) {
    const path = [...basePath, ...(issue.path as PathSegment[])];
    const dotted = formatPath(path);
    if (issue.code === 'unrecognized_keys') {
      const known = shapesAt(schema, issue.path as PathSegment[]).flatMap((s) => Object.keys(s));
      for (const key of issue.keys ?? []) {
        const hint = didYouMean(key, known.filter((k) => k !== '$schema')) ?? `allowed here: ${known.filter((k) => k !== '$schema').join(', ')}`;
        diagnostics.push(
          diag('IT1202', `unknown key \`${key}\`${dotted ? ` in \`${dotted}\`` : ''}`, locate(src, [...path, key], { key: true }), { hint }),
        );
      }
      continue;
    }
    const inputMissing = issue.code === 'invalid_type' && issue.input === undefined;
    let code: DiagnosticCode = 'IT1203';
    let message = `\`${dotted || '(document)'}\`: ${issue.message}`;
    let hint: string | undefined;
    if (inputMissing) {
      code = 'IT1204';
      message = `required key \`${String(path[path.length - 1])}\` is missing${path.length > 1 ? ` in \`${formatPath(path.slice(0, -1))}\`` : ''}`;
    } else if (/quantity/.test(issue.message)) {
      code = 'IT1205';
    } else if (path[path.length - 1] === 'name' && issue.code === 'invalid_format') {
      code = 'IT1206';
    } else if (issue.code === 'invalid_value' && Array.isArray(issue.values)) {
      const found = valueAt(value, issue.path as PathSegment[]);
      const values = (issue.values ?? []).map(String);
      message = `\`${dotted}\`: ${JSON.stringify(found)} is not one of ${values.map((v) => `\`${v}\``).join(', ')}`;
      if (typeof found === 'string') hint = didYouMean(found, values);
    }
    diagnostics.push(diag(code, message, locate(src, path), hint !== undefined ? { hint } : {}));
  }
  return { ok: false, diagnostics };
}

interface IssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
  values?: unknown[];
  input?: unknown;
  errors?: IssueLike[][];
}

/** Unions report one list of issues per branch; keep the branch that got furthest. */
function flattenIssues(issues: readonly z.core.$ZodIssue[]): IssueLike[] {
  const out: IssueLike[] = [];
  for (const raw of issues as unknown as IssueLike[]) {
    if (raw.code === 'invalid_union' && raw.errors && raw.errors.length > 0) {
      const branches = raw.errors.map((b) => b.map((i) => ({ ...i, path: [...raw.path, ...i.path] })));
      const deepest = branches.reduce((best, b) => (depth(b) > depth(best) ? b : best));
      if (depth(deepest) > raw.path.length) {
        out.push(...flattenIssues(deepest as unknown as z.core.$ZodIssue[]));
        continue;
      }
    }
    out.push(raw);
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

export function formatPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out ? `.${seg}` : seg;
  }
  return out;
}
