import path from 'node:path';
import { diag, type Diagnostic } from '../diagnostics';
import { diffTrees } from '../emit/drift';
import { serializeObjects, type OutputFile } from '../emit/layout';
import { readTree } from '../emit/write';
import { locate } from '../load/source';
import type { CompileResult } from '../pipeline';
import { diffObjects, parseObjects, type KubeObject, type ObjectDiff } from './diff';

/** The instancetype objects of a set of output files (README.md and kustomizations are skipped). */
export function objectsOf(files: readonly OutputFile[]): KubeObject[] {
  return files.filter((f) => /\.ya?ml$/.test(f.path)).flatMap((f) => parseObjects(f.content).objects);
}

/** The objects a compiled generator produces, as the base serializes them. */
export function generatedObjects(r: CompileResult): KubeObject[] {
  return serializeObjects(r.objects).flatMap(([, doc]) => parseObjects(doc).objects);
}

/**
 * Drift of one generator's output directory from what its catalog generates: an IT7001 per file
 * that is missing, extra or different, and the object-level diff from the committed objects.
 */
export function outputDrift(root: string, r: CompileResult): { diagnostics: Diagnostic[]; objects: ObjectDiff[] } {
  const dir = r.generator!.outputDir;
  const onDisk = readTree(path.resolve(root, dir));
  const changes = diffTrees(onDisk, r.files);
  const diagnostics = changes.map((c) =>
    // Files that exist get a location, so GitHub annotations land on them in a pull request.
    diag('IT7001', `${dir}/${c.path} ${c.change === 'added' ? 'is missing' : c.change === 'removed' ? 'should not exist' : 'differs from what the catalog generates'}`, c.change === 'added' ? undefined : { file: `${dir}/${c.path}`, line: 1, col: 1 }, {
      hint: 'run `itgen generate` and commit the result',
    }),
  );
  return { diagnostics, objects: changes.length > 0 ? diffObjects(objectsOf(onDisk), generatedObjects(r)) : [] };
}

/**
 * `kind/name` of every object of a base itgen wrote, read off the text: the guard runs on every
 * generate, and parsing a 100,000-object base with the yaml library takes half a minute. itgen's
 * writer puts `kind:` at the top of each document and `name:` two spaces in under `metadata:`.
 */
export function committedNames(files: readonly OutputFile[]): string[] {
  const out: string[] = [];
  for (const f of files) {
    if (!/\.ya?ml$/.test(f.path) || f.path.endsWith('kustomization.yaml')) continue;
    for (const doc of f.content.split(/^---$/m)) {
      const kind = /^kind: (\S+)$/m.exec(doc)?.[1];
      // The first two-space `name:` after `metadata:`, before the next top-level key; block
      // scalars above it are indented deeper, blank lines in them are skipped.
      let name: string | undefined;
      let inMetadata = false;
      for (const line of doc.split('\n')) {
        if (line === 'metadata:') inMetadata = true;
        else if (inMetadata && /^\S/.test(line)) break;
        else if (inMetadata && line.startsWith('  name: ')) {
          name = line.slice('  name: '.length).trim().replace(/^(["'])(.*)\1$/, '$2');
          break;
        }
      }
      if (kind !== undefined && name !== undefined) out.push(`${kind}/${name}`);
    }
  }
  return out;
}

/**
 * Before the first release there is no lock to stop a catalog edit from dropping published objects,
 * and Argo CD and Flux prune what disappears from the base. Until a lock exists the committed base
 * stands in for one: the objects it has that the catalogs no longer generate, as one IT7401 naming
 * them, at the generator's `output` line. With a lock the lock's own rules apply (IT7102).
 */
export function removalsWithoutLock(root: string, r: CompileResult): Diagnostic[] {
  if (r.lock || !r.generator) return [];
  const generated = new Set(r.objects.map((o) => `${o.manifest.kind}/${o.manifest.metadata.name}`));
  const committed = committedNames(readTree(path.resolve(root, r.generator.outputDir)));
  const dropped = committed.filter((k) => !generated.has(k));
  if (dropped.length === 0) return [];
  const shown = dropped.slice(0, 10).map((d) => `\`${d}\``).join(', ') + (dropped.length > 10 ? ` and ${dropped.length - 10} more` : '');
  return [
    diag('IT7401', `generating would remove ${dropped.length} object${dropped.length === 1 ? '' : 's'} that ${r.generator.outputDir} has: ${shown}`, locate(r.generator.src, ['output']), {
      hint: 'GitOps tools with pruning delete removed objects from the clusters, and the VMs using them lose their type; if that is meant, pass --allow-removals (after the first `itgen release`, the lock requires a release that ships them deprecated first)',
    }),
  ];
}
