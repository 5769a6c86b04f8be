/**
 * Replays the preview corpus (test/fixtures/preview-corpus/, made by tools/preview-corpus.mjs and
 * answered by the oracle's `preview` mode: KubeVirt's own start path, VMI webhooks and
 * RenderLaunchManifest) through itgen's library and compares the VMI by value.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { isPlainObject, type Json, type JsonObject } from '../src/json';
import { kubevirtConfig } from '../src/kubevirt/config';
import { previewVm } from '../src/expand/judge';
import type { PreviewResult } from '../src/expand/preview';
import { objectStore, type ObjectStore } from '../src/expand';

export interface PreviewCase {
  readonly id: string;
  readonly category: string;
  readonly vm: JsonObject;
  readonly objects: JsonObject[];
  readonly objectSets?: string[];
  readonly kubevirt: JsonObject | null;
  readonly namespace?: string;
}
export interface PreviewAnswer {
  readonly id: string;
  readonly vmi?: JsonObject;
  readonly pod?: JsonObject;
  readonly memoryOverhead?: string;
  readonly error?: { stage: string; message: string };
}

export function readJsonLines(file: string): unknown[] {
  const raw = readFileSync(file);
  return (file.endsWith('.gz') ? gunzipSync(raw) : raw)
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as unknown);
}

/** Differences between two JSON values, as paths (at most `limit`). */
export function jsonDiff(a: Json | undefined, b: Json | undefined, path = '', out: string[] = [], limit = 20): string[] {
  if (out.length >= limit) return out;
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) jsonDiff(a[k], b[k], path ? `${path}.${k}` : k, out, limit);
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) {
      const names = (l: Json[]): string => l.map((x) => (isPlainObject(x) ? String(x['name'] ?? '?') : '?')).join(',');
      out.push(`${path}: itgen ${a.length} [${names(a)}] kubevirt ${b.length} [${names(b)}]`);
      return out;
    }
    a.forEach((x, i) => jsonDiff(x, b[i], `${path}[${i}]`, out, limit));
    return out;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${path}: itgen ${JSON.stringify(a)?.slice(0, 120)} kubevirt ${JSON.stringify(b)?.slice(0, 120)}`);
  return out;
}

export function replayPreview(
  dir: string,
  which: 'vmi' | 'pod' = 'vmi',
  release?: string,
  answersFile = 'answers.jsonl.gz',
): { id: string; category: string; agree: boolean; why: string[] }[] {
  const cases = readJsonLines(`${dir}/cases.jsonl.gz`) as (PreviewCase & { mode: string; objects: JsonObject[] })[];
  const answers = new Map((readJsonLines(`${dir}/${answersFile}`) as PreviewAnswer[]).map((a) => [a.id, a]));
  const bundle = objectStore(cases.find((c) => c.mode === 'objects-set')!.objects);
  const out: { id: string; category: string; agree: boolean; why: string[] }[] = [];
  for (const c of cases) {
    if (c.mode !== 'preview') continue;
    const a = answers.get(c.id)!;
    if (!a.vmi || a.error) continue;
    const r = previewCase(c, bundle, release);
    if ('error' in r) {
      out.push({ id: c.id, category: c.category, agree: false, why: [`itgen refused: ${r.error}`] });
      continue;
    }
    const why =
      which === 'vmi'
        ? jsonDiff(r.vmi, withoutNullTimestamps(a.vmi))
        : [
            ...jsonDiff(r.pod, projectPod(a.pod!, r.pod)),
            ...(r.memoryOverhead === a.memoryOverhead ? [] : [`memoryOverhead: itgen ${r.memoryOverhead} kubevirt ${a.memoryOverhead}`]),
          ];
    out.push({ id: c.id, category: c.category, agree: why.length === 0, why });
  }
  return out;
}

/**
 * `value` with every `creationTimestamp: null` left out: the apimachinery of KubeVirt v1.7 and
 * earlier prints an unset metav1.Time as null (later ones leave it out), the same object, which the
 * API server stamps on create.
 */
export function withoutNullTimestamps<T extends Json>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => withoutNullTimestamps(v)) as T;
  if (!isPlainObject(value)) return value;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(value)) if (!(k === 'creationTimestamp' && v === null)) out[k] = withoutNullTimestamps(v);
  return out as T;
}

/** A case previewed as `release` (absent: the newest): its own objects before the bundle's. */
export function previewCase(c: PreviewCase, bundle: ObjectStore, release?: string): PreviewResult {
  const own = objectStore(c.objects ?? []);
  const store = {
    specObjects: [...own.specObjects, ...bundle.specObjects],
    volumes: [...own.volumes, ...bundle.volumes],
    revisions: [],
    cluster: own.cluster ?? [],
  };
  const read = kubevirtConfig(c.kubevirt).config;
  return previewVm(c.vm, store, release !== undefined ? { ...read, release } : read, c.namespace ?? 'default');
}

/** KubeVirt's pod reduced to what itgen renders (the fields `mine` has, containers by name and resources). */
export function projectPod(pod: JsonObject, mine: JsonObject): JsonObject {
  const pick = (from: Json | undefined, like: Json | undefined): Json | undefined => {
    if (!isPlainObject(like) || !isPlainObject(from))
      return Array.isArray(like) && Array.isArray(from) ? (from.map((x, i) => pick(x, like[i] ?? like[0])) as Json[]) : from;
    const out: JsonObject = {};
    for (const k of Object.keys(like)) if (from[k] !== undefined) out[k] = pick(from[k], like[k])!;
    return out;
  };
  const meta = pod['metadata'] as JsonObject;
  const spec = pod['spec'] as JsonObject;
  const containers = (v: Json | undefined): Json[] | undefined =>
    Array.isArray(v) ? v.map((c) => ({ name: (c as JsonObject)['name']!, resources: (c as JsonObject)['resources']! })) : undefined;
  const mySpec = mine['spec'] as JsonObject;
  const outSpec: JsonObject = {};
  for (const k of Object.keys(mySpec)) {
    if (k === 'containers' || k === 'initContainers') outSpec[k] = containers(spec[k]) ?? null;
    else if (spec[k] !== undefined) outSpec[k] = spec[k]!;
  }
  for (const k of [
    'initContainers',
    'affinity',
    'tolerations',
    'schedulerName',
    'priorityClassName',
    'topologySpreadConstraints',
    'runtimeClassName',
    'overhead',
  ])
    if (spec[k] !== undefined && outSpec[k] === undefined) outSpec[k] = k.endsWith('ontainers') ? (containers(spec[k]) ?? null) : spec[k]!;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: pick(meta, mine['metadata'])!,
    spec: outSpec,
  };
}

/**
 * The verdict of every case as `release` (absent: the newest) against `answersFile`: started, or
 * refused at the same stage in the same words. One line per disagreement.
 */
export function replayVerdicts(dir: string, release?: string, answersFile = 'answers.jsonl.gz'): { cases: number; disagreements: string[] } {
  const cases = readJsonLines(`${dir}/cases.jsonl.gz`) as (PreviewCase & { mode: string })[];
  const answers = new Map((readJsonLines(`${dir}/${answersFile}`) as PreviewAnswer[]).map((a) => [a.id, a]));
  const bundle = objectStore(cases.find((c) => c.mode === 'objects-set')!.objects);
  const disagreements: string[] = [];
  let count = 0;
  for (const c of cases) {
    if (c.mode !== 'preview') continue;
    count++;
    const a = answers.get(c.id)!;
    const r = previewCase(c, bundle, release);
    const theirs = a.error ? `${a.error.stage}: ${a.error.message}` : 'started';
    const ours = 'error' in r ? `${r.stage}: ${r.error}` : 'started';
    if (theirs !== ours) disagreements.push(`${c.id}: KubeVirt ${theirs.slice(0, 200)} | itgen ${ours.slice(0, 200)}`);
  }
  return { cases: count, disagreements };
}
