/**
 * A generator's paths and whether it may use them, from what its file says (the parse is the
 * schema stage's): its name, the catalog it reads and the output it replaces, each inside the
 * project, and outputs that do not overlap each other.
 */
import { statSync } from './reads';
import path from 'node:path';
import { diag, type Diagnostic } from '../diagnostics';
import { printable } from '../printable';
import { foreignEntries } from './base';
import { describeOutputDir, realLocation, relativePath, within } from './files';
import { locate, type SourceDoc } from './source';

/** Whether two absolute paths are the same directory or one holds the other. */
const overlaps = (a: string, b: string): boolean => a === b || within(a, b) || within(b, a);

/**
 * itgen replaces its output directory wholesale, so the directory must be one it may own: inside
 * the project (symlinks resolved), not the project itself, not holding or inside the generators,
 * the catalog or `.git`, and, when it exists, empty or a base itgen can prove it wrote (`load/base.ts`).
 */
function outputProblems(absRoot: string, generatorDir: string, catalogAbs: string, outputAbs: string, written: string, doc: SourceDoc): Diagnostic[] {
  const at = locate(doc, ['output']);
  const realRoot = realLocation(absRoot);
  const realOutput = realLocation(outputAbs);
  if (!within(absRoot, outputAbs) || !within(realRoot, realOutput)) {
    return [
      diag('IT1009', `output \`${written}\` is outside the project directory${within(absRoot, outputAbs) ? ' (through a symbolic link)' : ''}`, at, {
        hint: 'itgen writes only inside the project (the current directory, or -C DIR); use a path like ../output/<name>',
      }),
    ];
  }
  const owned: [string, string][] = [
    [catalogAbs, 'the catalog'],
    [generatorDir, 'the generators directory'],
    [path.join(absRoot, '.git'), 'the Git repository'],
  ];
  for (const [other, what] of owned) {
    if (overlaps(outputAbs, other) || overlaps(realOutput, realLocation(other))) {
      return [
        diag('IT1009', `output \`${written}\` overlaps ${what}`, at, { hint: `itgen replaces the whole output directory; generating would replace ${what}` }),
      ];
    }
  }
  // A file where a directory of the output path must be makes every write fail; say which.
  for (let dir = path.dirname(outputAbs); within(absRoot, dir); dir = path.dirname(dir)) {
    if (describeOutputDir(dir) === 'not-a-directory') {
      return [
        diag('IT1009', `output \`${written}\` cannot be created: \`${relativePath(absRoot, dir)}\` is a file, not a directory`, at, {
          hint: 'move the file away, or choose another output directory',
        }),
      ];
    }
  }
  const state = describeOutputDir(outputAbs);
  if (state === 'not-a-directory') {
    return [
      diag('IT1009', `output \`${written}\` already holds a file`, at, {
        hint: 'itgen writes a directory there; point it at a new directory, or move the file away',
      }),
    ];
  }
  const foreign = state === 'directory' ? foreignEntries(outputAbs) : [];
  if (foreign.length > 0) {
    const shown = foreign.slice(0, MAX_NAMED).map((f) => `\`${printable(f, true)}\``);
    const more = foreign.length > MAX_NAMED ? ` and ${foreign.length - MAX_NAMED} more` : '';
    return [
      diag('IT1009', `output \`${written}\` is not a base itgen wrote: generating would replace ${shown.join(', ')}${more}`, at, {
        hint: 'itgen replaces the whole output directory and owns only a base it wrote (its kustomization.yaml, README.md and kind directories); point output at a new directory, such as ../output/<generator>, or move these files away',
      }),
    ];
  }
  return [];
}

/** How many files a refused output names before "and N more". */
const MAX_NAMED = 8;

/** A catalog that is missing or is a file is the generator's mistake: say so at its `catalog` line. */
function catalogProblems(catalogAbs: string, written: string, doc: SourceDoc): Diagnostic[] {
  const at = locate(doc, ['catalog']);
  try {
    if (statSync(catalogAbs).isDirectory()) return [];
    return [
      diag('IT1008', `catalog \`${written}\` is a file, not a directory`, at, { hint: "point `catalog` at the directory that holds the catalog's YAML files" }),
    ];
  } catch {
    return [
      diag('IT1008', `catalog directory \`${written}\` does not exist`, at, {
        hint: 'the path is relative to the generator file; create the directory or fix the path',
      }),
    ];
  }
}

/**
 * The generator's name (its file name) and its catalog and output directories (project-relative,
 * POSIX), or what is wrong with them: `metadata.name` other than the file name, a catalog outside
 * the project or missing, an output itgen may not own.
 */
export function vetGenerator(
  root: string,
  file: string,
  doc: SourceDoc,
  written: { readonly catalog: string; readonly output: string; readonly metadataName?: string | undefined },
): { name: string; catalogDir: string; outputDir: string; diagnostics: Diagnostic[] } {
  const absRoot = path.resolve(root);
  const dir = path.dirname(path.resolve(absRoot, file));
  const catalogAbs = path.resolve(dir, written.catalog);
  const outputAbs = path.resolve(dir, written.output);
  const name = path.basename(file).replace(/\.ya?ml$/, '');
  const out: Diagnostic[] = [];
  if (written.metadataName !== undefined && written.metadataName !== name) {
    out.push(
      diag('IT1009', `metadata.name \`${written.metadataName}\` is not the generator's file name \`${name}\``, locate(doc, ['metadata', 'name']), {
        hint: `the name appears in the output path, the lock file and the docs; rename the file or set metadata.name: ${name}`,
      }),
    );
  }
  // A generator reads only its project's files: in KRM function mode its config arrives from
  // outside, and must not make itgen read (and quote) arbitrary files of the machine.
  if (!within(realLocation(absRoot), realLocation(catalogAbs))) {
    out.push(
      diag('IT1009', `catalog \`${written.catalog}\` is outside the project directory`, locate(doc, ['catalog']), {
        hint: 'itgen reads catalogs only inside the project (the current directory, or -C DIR)',
      }),
    );
  } else out.push(...catalogProblems(catalogAbs, written.catalog, doc));
  out.push(...outputProblems(absRoot, dir, catalogAbs, outputAbs, written.output, doc));
  return { name, catalogDir: relativePath(absRoot, catalogAbs), outputDir: relativePath(absRoot, outputAbs), diagnostics: out };
}

/** Two generators writing into one place would erase each other's output. */
export function outputOverlaps(generators: readonly { readonly name: string; readonly outputDir: string; readonly src: SourceDoc }[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (let i = 0; i < generators.length; i++) {
    for (let j = i + 1; j < generators.length; j++) {
      const a = generators[i]!;
      const b = generators[j]!;
      if (overlaps(path.resolve('/', a.outputDir), path.resolve('/', b.outputDir))) {
        out.push(
          diag(
            'IT1009',
            `generators \`${a.name}\` and \`${b.name}\` write into overlapping directories (\`${a.outputDir}\`, \`${b.outputDir}\`)`,
            locate(b.src, ['output']),
            {
              hint: 'give every generator a directory of its own, such as output/<generator>',
              related: [{ message: `\`${a.name}\` writes here`, location: locate(a.src, ['output']) }],
            },
          ),
        );
      }
    }
  }
  return out;
}
