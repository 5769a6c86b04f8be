import { mappingToYaml } from '../emit/serialize';
import { diag, type Diagnostic } from '../diagnostics';
import { diffTrees } from '../emit/drift';
import { objectsInText, readCommittedBase, type CommittedBase } from '../emit/committed';
import { serializeObjects } from '../emit/layout';
import { locate } from '../load/source';
import type { CompileResult } from '../pipeline';
import { diffObjects, type KubeObject, type ObjectDiff } from './diff';

/** The objects a compiled generator produces, as the base serializes them. */
export function generatedObjects(r: CompileResult): KubeObject[] {
  return [
    ...serializeObjects(r.objects).flatMap(([kind, doc]) => objectsInText(kind, doc)),
    // The templates a generator's `templates:` ships are objects of its base too.
    ...(r.templates ?? []).flatMap((t) => objectsInText('VirtualMachineTemplate', mappingToYaml(t))),
  ];
}

/**
 * Drift of one generator's output directory from what its catalog generates: an IT7001 per file
 * that is missing, extra or different, and the object-level diff from the committed objects.
 */
export function outputDrift(root: string, r: CompileResult): { diagnostics: Diagnostic[]; objects: ObjectDiff[] } {
  const dir = r.generator!.outputDir;
  const committed = readCommittedBase(root, dir);
  const changes = diffTrees(committed.files, r.files);
  const generatedByPath = new Map(r.files.map((f) => [f.path, f.content] as const));
  const committedByPath = new Map(committed.files.map((f) => [f.path, f.content] as const));
  const diagnostics = changes.map((c) => {
    // Files that exist get a location, so GitHub annotations land on them in a pull request: a
    // changed file at its first line that differs, with the object that line belongs to.
    const first = c.change === 'modified' ? firstDifference(committedByPath.get(c.path) ?? '', generatedByPath.get(c.path) ?? '') : undefined;
    const what = c.change === 'added' ? 'is missing' : c.change === 'removed' ? 'should not exist' : 'differs from what the catalog generates';
    return diag(
      'IT7001',
      `${dir}/${c.path} ${what}${first?.object !== undefined ? `, first in ${first.object}` : ''}`,
      c.change === 'added' ? undefined : { file: `${dir}/${c.path}`, line: first?.line ?? 1, col: 1 },
      {
        hint: 'run `itgen generate` and commit the result',
      },
    );
  });
  return { diagnostics, objects: changes.length > 0 ? diffObjects(committed.objects(), generatedObjects(r)) : [] };
}

/** What identifies an object to a pruning controller (the API group is the same for all of ours). */
export type Identified = { readonly kind: string; readonly metadata: { readonly name: string; readonly namespace?: unknown } };

/** `Kind/name`, or `Kind/namespace/name` when the object has a namespace: what a pruning controller tracks. */
function objectKey(kind: string, metadata: { readonly name: string; readonly namespace?: unknown }): string {
  return typeof metadata.namespace === 'string' ? `${kind}/${metadata.namespace}/${metadata.name}` : `${kind}/${metadata.name}`;
}

/**
 * The objects of a committed base that a new generation lacks, by kind, namespace and name: Argo CD
 * and Flux prune by that identity, so a changed generator `namespace` removes every namespaced
 * object from its old namespace. Sorted, so the message does not depend on file order.
 */
export function droppedObjects(committed: readonly Identified[], generated: readonly Identified[]): string[] {
  const kept = new Set(generated.map((o) => objectKey(o.kind, o.metadata)));
  return [...new Set(committed.map((o) => objectKey(o.kind, o.metadata)))].filter((k) => !kept.has(k)).sort();
}

/**
 * Before the first release there is no lock to stop a catalog edit from dropping published objects,
 * and Argo CD and Flux prune what disappears from the base. Until a lock exists the committed base
 * stands in for one: the objects it has that the catalogs no longer generate, as one IT7401 naming
 * them, at the generator's `output` line. With a lock the lock's own rules apply (IT7102).
 */
export function removalsWithoutLock(r: CompileResult, committed: (outputDir: string) => CommittedBase): Diagnostic[] {
  if (r.lock || !r.generator) return [];
  // Only files that differ from what is generated can hold an object that is gone.
  const dropped = droppedObjects(committed(r.generator.outputDir).objectsNotIn(r.files), [
    ...r.objects.map((o) => o.manifest),
    ...(r.templates ?? []).map((t) => ({ kind: 'VirtualMachineTemplate', metadata: t['metadata'] as { readonly name: string; readonly namespace?: unknown } })),
  ]);
  if (dropped.length === 0) return [];
  const shown =
    dropped
      .slice(0, 10)
      .map((d) => `\`${d}\``)
      .join(', ') + (dropped.length > 10 ? ` and ${dropped.length - 10} more` : '');
  return [
    diag(
      'IT7401',
      `generating would remove ${dropped.length} object${dropped.length === 1 ? '' : 's'} that ${r.generator.outputDir} has: ${shown}`,
      locate(r.generator.src, ['output']),
      {
        hint: 'GitOps tools with pruning delete removed objects from the clusters, and the VMs using them lose their type; if that is meant, pass --allow-removals (after the first `itgen release`, the lock requires a release that ships them deprecated first)',
      },
    ),
  ];
}

/** The first line (1-based) where the committed text differs from the generated one, and the object (`Kind \`name\``) it is in. */
function firstDifference(committed: string, generated: string): { line: number; object?: string } {
  const a = committed.split('\n');
  const b = generated.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  // The document that line is in: its kind, and its metadata.name (two spaces in, as itgen writes it).
  let kind: string | undefined;
  let name: string | undefined;
  for (let j = Math.min(i, a.length - 1); j >= 0; j--) {
    const line = a[j]!;
    if (line === '---') break;
    const n = /^ {2}name: (.+)$/.exec(line);
    if (n && name === undefined) name = n[1];
    const k = /^kind: (.+)$/.exec(line);
    if (k) kind = k[1];
  }
  if (name === undefined)
    for (let j = i; j < a.length && a[j] !== '---'; j++) {
      const n = /^ {2}name: (.+)$/.exec(a[j]!);
      if (n) {
        name = n[1];
        break;
      }
    }
  return { line: Math.min(i, a.length - 1) + 1, ...(name !== undefined ? { object: `${kind ?? 'object'} \`${name.slice(0, 100)}\`` } : {}) };
}
