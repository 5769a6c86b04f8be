import path from 'node:path';
import { diag, type Diagnostic } from '../diagnostics';
import { diffTrees } from '../emit/drift';
import { serializeObjects, type OutputFile } from '../emit/layout';
import { readTree } from '../emit/write';
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
