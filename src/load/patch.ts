/**
 * Patches on imported documents (`Catalog.imports[].patches`): a catalog changes a field of a
 * document it imports (deprecates a family, relabels a preference, drops sizes) without copying the
 * document, as a kustomize overlay changes a base. A patch is a JSON merge patch (RFC 7386): a
 * mapping merges into the document's mapping key by key, `null` deletes a key, and anything else
 * (a list, a scalar) replaces what was there. The patched document keeps its own positions, and
 * every part the patch wrote points at the patch (SourceDoc.patched), so that a diagnostic or
 * `explain` names the line the user wrote.
 */
import { isPlainObject } from '../json';
import type { PathSegment, PatchOrigin, SourceDoc } from './source';

const isMapping = isPlainObject;

/** A value with the nulls of its mappings dropped (what RFC 7386 writes where nothing was to merge into). */
function withoutNulls(v: unknown): unknown {
  if (!isMapping(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = withoutNulls(x);
  return out;
}

/** RFC 7386 on `target`, recording the path of each part the patch wrote. */
function mergePatch(target: unknown, patch: Record<string, unknown>, path: PathSegment[], wrote: PathSegment[][]): Record<string, unknown> {
  const out: Record<string, unknown> = isMapping(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      delete out[k];
      continue;
    }
    if (isMapping(v) && isMapping(out[k])) {
      out[k] = mergePatch(out[k], v, [...path, k], wrote);
      continue;
    }
    out[k] = withoutNulls(v);
    wrote.push([...path, k]);
  }
  return out;
}

/**
 * `doc` with `patch` merged in; `to` and `at` are where the patch is written (the importing
 * Catalog document and the path of the patch's `patch:` in it).
 */
export function patchedDoc(doc: SourceDoc, patch: Record<string, unknown>, to: SourceDoc, at: readonly PathSegment[]): SourceDoc {
  const wrote: PathSegment[][] = [];
  const value = mergePatch(doc.value, patch, [], wrote);
  const patched: PatchOrigin[] = [...(doc.patched ?? []), ...wrote.map((p) => ({ path: p, to, at: [...at, ...p] }))];
  const out = {
    file: doc.file,
    index: doc.index,
    lineCounter: doc.lineCounter,
    value,
    ...(doc.fast !== undefined ? { fast: doc.fast } : {}),
    patched,
  };
  // The library document is built on first use (load/source.ts): ask the original for it then.
  return Object.defineProperty(out, 'doc', { enumerable: true, get: () => doc.doc }) as typeof out & Pick<SourceDoc, 'doc'>;
}

/** Whether `patch` would change what identifies the document it targets (kind, name or version). */
export function changesIdentity(patch: Record<string, unknown>): string | undefined {
  return ['kind', 'name', 'version'].find((k) => k in patch);
}
