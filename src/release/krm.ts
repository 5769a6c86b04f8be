/**
 * KRM function mode (kpt `fn eval --exec`, kustomize exec functions): a ResourceList in, the same
 * list out with this generator's objects in place of any earlier copies. See
 * https://github.com/kubernetes-sigs/kustomize/blob/master/cmd/config/docs/api-conventions/functions-spec.md
 */
import { isPlainObject, type Json, type JsonObject } from '../json';
import { parseDocument } from 'yaml';
import type { Diagnostic } from '../diagnostics';
import { KIND_DIRS } from '../emit/layout';
import { toYaml } from '../emit/serialize';
import type { RenderedObject } from '../render/manifests';

import { INSTANCETYPE_GROUP } from './diff';

export const RESOURCE_LIST_API_VERSION = 'config.kubernetes.io/v1';

export interface ResourceListInput {
  readonly functionConfig: JsonObject;
  readonly items: readonly JsonObject[];
}

const isObject = isPlainObject;

export function parseResourceList(text: string): ResourceListInput | { error: string } {
  let value: unknown;
  try {
    const doc = parseDocument(text, { uniqueKeys: true });
    if (doc.errors.length > 0) return { error: doc.errors[0]!.message.split('\n')[0] ?? 'YAML error' };
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return { error: (e as Error).message };
  }
  if (!isObject(value) || value['kind'] !== 'ResourceList') return { error: 'stdin is not a ResourceList (kind: ResourceList)' };
  const fc = value['functionConfig'];
  if (!isObject(fc)) return { error: 'the ResourceList has no functionConfig: pass the generator file with --fn-config' };
  const items = value['items'] ?? [];
  if (!Array.isArray(items) || !items.every(isObject)) return { error: '`items` of the ResourceList is not a list of objects' };
  return { functionConfig: fc, items: items as JsonObject[] };
}

/** Annotations kpt and kustomize put on function configs and items; not part of the generator. */
export function withoutOrchestratorAnnotations(o: JsonObject): JsonObject {
  const meta = o['metadata'];
  if (!isObject(meta) || !isObject(meta['annotations'])) return o;
  const ann: JsonObject = {};
  for (const [k, v] of Object.entries(meta['annotations'])) {
    if (!k.startsWith('config.kubernetes.io/') && !k.startsWith('internal.config.kubernetes.io/') && !k.startsWith('config.k8s.io/')) ann[k] = v;
  }
  const { annotations: _dropped, ...rest } = meta;
  return { ...o, metadata: Object.keys(ann).length > 0 ? { ...rest, annotations: ann } : rest };
}

/** The files `itgen generate` (and this function) put objects in: `<kind>s.yaml` and its parts `<kind>s-2.yaml`... (emit/layout.ts). */
const OUR_FILE = new RegExp(
  `^(?:${Object.entries(KIND_DIRS)
    .map(([kind, dir]) => `${dir}/${kind.toLowerCase()}s`)
    .join('|')})(?:-[1-9][0-9]{0,5})?\\.yaml$`,
);

/**
 * Input items that are this generator's earlier output, to be replaced: any object it generates
 * now, or an instancetype object that kpt read from one of the files this function writes (a
 * stale one, removed from the catalog since). A vendor label is no proof of ownership: upstream
 * and other teams use `kubevirt.io` too. Everything else passes through.
 */
function isOurs(item: JsonObject, generated: ReadonlySet<string>): boolean {
  const api = item['apiVersion'];
  const meta = item['metadata'];
  if (typeof api !== 'string' || !api.startsWith(INSTANCETYPE_GROUP) || !isObject(meta)) return false;
  if (generated.has(`${String(item['kind'])}/${String(meta['name'])}`)) return true;
  const ann = meta['annotations'];
  if (!isObject(ann)) return false;
  const file = ann['internal.config.kubernetes.io/path'] ?? ann['config.kubernetes.io/path'];
  return typeof file === 'string' && OUR_FILE.test(file);
}

/**
 * The output items: pass-through items first (their order kept), then the generated objects in
 * itgen's order. Each generated object is annotated with the file `itgen generate` would put it
 * in, so `kpt fn eval DIR` lays a directory out the same way.
 */
export function resultItems(input: ResourceListInput, objects: readonly RenderedObject[]): Json[] {
  const generated = new Set(objects.map((o) => `${o.manifest.kind}/${o.manifest.metadata.name}`));
  const kept = input.items.filter((i) => !isOurs(i, generated));
  const perFile = new Map<string, number>();
  const ours = objects.map((o) => {
    const file = `${KIND_DIRS[o.manifest.kind]}/${o.manifest.kind.toLowerCase()}s.yaml`;
    const index = perFile.get(file) ?? 0;
    perFile.set(file, index + 1);
    const m = o.manifest;
    const annotations = {
      ...(m.metadata.annotations ?? {}),
      'config.kubernetes.io/index': String(index),
      'config.kubernetes.io/path': file,
      'internal.config.kubernetes.io/index': String(index),
      'internal.config.kubernetes.io/path': file,
    };
    return { apiVersion: m.apiVersion, kind: m.kind, metadata: { ...m.metadata, annotations }, spec: m.spec } as unknown as Json;
  });
  return [...kept, ...ours];
}

/** KRM results: one per diagnostic, with the file it points at. */
export function resultsOf(diagnostics: readonly Diagnostic[]): Json[] {
  return diagnostics.map((d) => {
    const r: JsonObject = { message: d.hint ? `${d.code} ${d.message} (hint: ${d.hint})` : `${d.code} ${d.message}`, severity: d.severity };
    if (d.location) r['file'] = { path: d.location.file };
    return r;
  });
}

export function serializeResourceList(items: readonly Json[], results: readonly Json[]): string {
  return toYaml({ apiVersion: RESOURCE_LIST_API_VERSION, kind: 'ResourceList', items, ...(results.length > 0 ? { results } : {}) });
}
