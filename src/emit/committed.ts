/**
 * The committed output of a generator, read in this one place. `output/` is committed, so a pull
 * request controls it: it is untrusted input like a catalog. Files are read by `readTree` (links
 * not followed, bounded depth and size, what is not a file read as a description of what it is)
 * and documents by `parseSource` (bounded size, document count and nesting, no prototype keys); an
 * object is only what has the instancetype API group, a string kind and a string name. Whatever
 * else a file holds differs from what itgen generates and is reported as drift, never trusted.
 */
import { isPlainObject, type Json } from '../json';
import path from 'node:path';
import { parseSource } from '../load/source';

import type { OutputFile } from './layout';
import { readTree } from './write';

export const INSTANCETYPE_GROUP = 'instancetype.kubevirt.io/';

/** An instancetype.kubevirt.io object as read from YAML. */
export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly [k: string]: Json };
  readonly [k: string]: Json;
}

/** The instancetype objects of one YAML text, and the VirtualMachineTemplates a generator ships; documents that are not (or do not parse) are skipped. */
export function objectsInText(file: string, text: string): KubeObject[] {
  const out: KubeObject[] = [];
  for (const d of parseSource(file, Buffer.from(text)).docs) {
    const v = d.value;
    if (!isPlainObject(v as Json)) continue;
    const o = v as Record<string, Json>;
    const meta = o['metadata'];
    const template = o['kind'] === 'VirtualMachineTemplate' && typeof o['apiVersion'] === 'string' && o['apiVersion'].startsWith('template.kubevirt.io/');
    if (!template && (typeof o['apiVersion'] !== 'string' || !o['apiVersion'].startsWith(INSTANCETYPE_GROUP))) continue;
    if (typeof o['kind'] !== 'string' || !isPlainObject(meta) || typeof (meta as Record<string, Json>)['name'] !== 'string') continue;
    out.push(o as unknown as KubeObject);
  }
  return out;
}

/** The instancetype objects of a set of output files (README.md and kustomizations are skipped). */
export function committedObjects(files: readonly OutputFile[]): KubeObject[] {
  // The admission policies under policy/ are not catalog objects (policy/base.ts).
  return files
    .filter((f) => /\.ya?ml$/.test(f.path) && !/(^|\/)kustomization\.ya?ml$/.test(f.path) && !f.path.startsWith('policy/'))
    .flatMap((f) => objectsInText(f.path, f.content));
}

/** A generator's committed base: its files, and the objects in them (parsed on first use). */
export interface CommittedBase {
  readonly files: readonly OutputFile[];
  objects(): KubeObject[];
  /**
   * The objects of the files that differ from `generated` (same path, other bytes, or not
   * generated at all): an object in an identical file is generated too, so only these can be gone.
   */
  objectsNotIn(generated: readonly OutputFile[]): KubeObject[];
}

/**
 * The committed base under `outputDir`, read while another itgen may be swapping it in (two
 * renames, outside any lock here): a read that meets the swap is tried again rather than failing.
 */
export function readCommittedBase(root: string, outputDir: string): CommittedBase {
  const dir = path.resolve(root, outputDir);
  let files: OutputFile[] | undefined;
  for (let attempt = 0; files === undefined; attempt++) {
    try {
      files = readTree(dir);
    } catch (e) {
      if (attempt >= 20) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
  let objects: KubeObject[] | undefined;
  const read = files;
  return {
    files: read,
    objects: () => (objects ??= committedObjects(read)),
    objectsNotIn: (generated) => {
      const same = new Map(generated.map((f) => [f.path, f.content] as const));
      return committedObjects(read.filter((f) => same.get(f.path) !== f.content));
    },
  };
}

/**
 * The specs of a committed base's objects by `kind/name`, what the release lock compares a changed
 * object with to point at the field that changed: read and parsed only when first asked.
 */
export function committedSpecs(root: string, outputDir: string): Pick<ReadonlyMap<string, unknown>, 'get'> {
  let specs: Map<string, unknown> | undefined;
  return {
    get: (key) =>
      (specs ??= new Map(
        readCommittedBase(root, outputDir)
          .objects()
          .map((o) => [`${o.kind}/${o.metadata.name}`, o['spec']]),
      )).get(key),
  };
}
