/**
 * An instance type's or preference's spec as a KubeVirt release's Go types decode it: a field that
 * arrived in a later release (schema/kubevirt-api.ts's `*_FIELD_SINCE` tables) is dropped, as the
 * release's lenient decoding drops it (v1.8 applies no `preferredVideoType`). The newest release
 * keeps every field.
 */
import { hasSince, modelledRelease, MODELLED_RELEASES } from '../kubevirt/releases';
import { isPlainObject, type Json, type JsonObject } from '../json';
import { fieldSinceFor, type SpecKind } from '../schema/kubevirt-api';
import type { References } from './model';

function drop(value: Json | undefined, path: readonly string[]): void {
  if (path.length === 0 || value === undefined || value === null) return;
  const [head, ...rest] = path;
  const list = head!.endsWith('[]');
  const key = list ? head!.slice(0, -2) : head!;
  if (!isPlainObject(value)) return;
  const o = value as JsonObject;
  if (!Object.hasOwn(o, key)) return;
  if (rest.length === 0 && !list) {
    delete o[key];
    return;
  }
  if (list) for (const item of Array.isArray(o[key]) ? (o[key] as Json[]) : []) drop(item, rest);
  else drop(o[key], rest);
}

/** `spec` (not changed) as `release` decodes it: a copy without the fields it does not have, or `spec` itself. */
export function specAsRelease(spec: JsonObject, kind: SpecKind, release: string | undefined): JsonObject {
  const unknown = unknownFields(kind, release);
  if (unknown.length === 0) return spec;
  const out = structuredClone(spec);
  for (const path of unknown) drop(out, path);
  return out;
}

/** The fields of each kind each modelled release does not have: constant data, computed once. */
const UNKNOWN: Readonly<Record<SpecKind, ReadonlyMap<string, readonly (readonly string[])[]>>> = {
  instancetype: unknownPerRelease('instancetype'),
  preference: unknownPerRelease('preference'),
};

function unknownPerRelease(kind: SpecKind): ReadonlyMap<string, readonly (readonly string[])[]> {
  return new Map(
    MODELLED_RELEASES.map((m) => [
      m,
      Object.entries(fieldSinceFor(kind))
        .filter(([, since]) => !hasSince(since, m))
        .map(([path]) => path.split('.')),
    ]),
  );
}

function unknownFields(kind: SpecKind, release: string | undefined): readonly (readonly string[])[] {
  const m = modelledRelease(release);
  return m === undefined ? [] : (UNKNOWN[kind].get(m) ?? []);
}

/** The VM's instance type and preference as `release` decodes them: `refs` itself when the release has every field they use. */
export function referencesAsRelease(refs: References, release: string | undefined): References {
  const it = refs.instancetype;
  const pref = refs.preference;
  const itSpec = it ? specAsRelease(it.spec, 'instancetype', release) : undefined;
  const prefSpec = pref ? specAsRelease(pref.spec, 'preference', release) : undefined;
  if (itSpec === it?.spec && prefSpec === pref?.spec) return refs;
  return { instancetype: it && itSpec ? { ...it, spec: itSpec } : it, preference: pref && prefSpec ? { ...pref, spec: prefSpec } : pref };
}
