/**
 * The shape of src/ as the house wants it (docs/design.md, "Pipeline"): the import graph follows the
 * stages of tools/stages.json (the lint's order) with no cycle; the CLI stays a thin layer; a file
 * over 400 lines or a function over 80 says why at its top ("Over 400 lines:", "Over 80 lines:").
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { REPO } from './helpers';

const SRC = path.join(REPO, 'src');
const { stages, files: rootFiles } = JSON.parse(readFileSync(path.join(REPO, 'tools', 'stages.json'), 'utf8')) as { stages: string[][]; files: string[] };

function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}
const FILES = sources();
const rel = (f: string): string => path.relative(SRC, f).split(path.sep).join('/');

/** The stage of a module: its folder, or its name at the root. */
function stageOf(file: string): number {
  const r = rel(file);
  const name = r.includes('/') ? r.slice(0, r.indexOf('/')) : r.replace(/\.ts$/, '');
  const at = stages.findIndex((s) => s.includes(name));
  if (at < 0) throw new Error(`${r}: no stage in tools/stages.json`);
  return at;
}

/** Every relative import and re-export of a module, type-only ones included, resolved to files. */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms)].map((m) => m[1]!);
  return found.flatMap((spec) => {
    const base = path.resolve(path.dirname(file), spec);
    const hit = [`${base}.ts`, path.join(base, 'index.ts')].find((c) => FILES.includes(c));
    return hit ? [hit] : [];
  });
}
const GRAPH = new Map(FILES.map((f) => [f, imports(f)] as const));

describe('the import graph', () => {
  it('every module belongs to a stage, and no module imports a later stage', () => {
    expect(rootFiles.every((n) => stages.flat().includes(n))).toBe(true);
    const upward = FILES.flatMap((f) =>
      GRAPH.get(f)!
        .filter((d) => stageOf(d) > stageOf(f))
        .map((d) => `${rel(f)} -> ${rel(d)}`),
    );
    expect(upward).toEqual([]);
  });

  it('has no cycle', () => {
    // Tarjan's strongly connected components: any of more than one module is a cycle.
    let index = 0;
    const stack: string[] = [];
    const on = new Set<string>();
    const idx = new Map<string, number>();
    const low = new Map<string, number>();
    const cycles: string[][] = [];
    const visit = (v: string): void => {
      idx.set(v, index);
      low.set(v, index++);
      stack.push(v);
      on.add(v);
      for (const w of GRAPH.get(v)!) {
        if (!idx.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
      }
      if (low.get(v) === idx.get(v)) {
        const c: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          on.delete(w);
          c.push(rel(w));
        } while (w !== v);
        if (c.length > 1) cycles.push(c.sort());
      }
    };
    for (const f of FILES) if (!idx.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });

  it("a command's file imports only cli/ and the workflows: it parses, calls one workflow and renders", () => {
    const outside = FILES.filter((f) => rel(f).startsWith('cli/commands/')).flatMap((f) =>
      GRAPH.get(f)!
        .filter((d) => !rel(d).startsWith('cli/') && !rel(d).startsWith('workflows/'))
        .map((d) => `${rel(f)} -> ${rel(d)}`),
    );
    expect(outside).toEqual([]);
  });

  it("a command's file renders through its workflow's renderers: no JSON written in it", () => {
    const inline = FILES.filter((f) => rel(f).startsWith('cli/commands/') && /JSON\.stringify\(/.test(readFileSync(f, 'utf8'))).map(rel);
    expect(inline).toEqual([]);
  });

  it('the kubevirt/ floor imports only json.ts and quantity.ts besides itself', () => {
    const outside = FILES.filter((f) => rel(f).startsWith('kubevirt/')).flatMap((f) =>
      GRAPH.get(f)!
        .filter((d) => !rel(d).startsWith('kubevirt/') && !['json.ts', 'quantity.ts'].includes(rel(d)))
        .map((d) => `${rel(f)} -> ${rel(d)}`),
    );
    expect(outside).toEqual([]);
  });
});

describe('the size of things', () => {
  const lines = (f: string): number => readFileSync(f, 'utf8').split('\n').length - 1;

  it('src/cli is under 2,000 lines: a file per command (its declaration and its run), the parser and the help', () => {
    const cli = FILES.filter((f) => rel(f).startsWith('cli/'));
    expect(cli.reduce((n, f) => n + lines(f), 0)).toBeLessThan(2000);
  });

  it('a file over 400 lines says why at its top, and only such a file', () => {
    const header = (f: string): string => {
      const text = readFileSync(f, 'utf8');
      return text.slice(0, Math.max(0, text.search(/^(import|export) /m)));
    };
    const unexplained = FILES.filter((f) => lines(f) > 400 && !/Over 400 lines:/.test(header(f)));
    const stale = FILES.filter((f) => lines(f) <= 400 && /Over 400 lines:/.test(header(f)));
    expect({ unexplained: unexplained.map(rel), stale: stale.map(rel) }).toEqual({ unexplained: [], stale: [] });
  });

  it('a function over 80 lines says why in the comment above it, and no shorter one does', () => {
    const unexplained: string[] = [];
    const stale: string[] = [];
    for (const f of FILES) {
      const text = readFileSync(f, 'utf8');
      const sf = ts.createSourceFile(f, text, ts.ScriptTarget.Latest, true);
      // Every reason written in the file, by offset; each must be the comment of a long function.
      const reasons = new Map([...text.matchAll(/Over 80 lines:/g)].map((m) => [m.index, false] as [number, boolean]));
      const visit = (n: ts.Node): void => {
        if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && n.body) {
          const from = sf.getLineAndCharacterOfPosition(n.body.getStart()).line;
          const to = sf.getLineAndCharacterOfPosition(n.body.getEnd()).line;
          if (to - from + 1 > 80) {
            // The comment of the function, or of the statement that holds it (`export const x = () => ...`).
            let holder: ts.Node = n;
            while (holder.parent && !ts.isSourceFile(holder.parent) && !ts.isBlock(holder.parent) && !ts.isClassDeclaration(holder.parent))
              holder = holder.parent;
            const ranges = ts.getLeadingCommentRanges(text, holder.getFullStart()) ?? [];
            let said = false;
            for (const r of ranges)
              for (const at of reasons.keys())
                if (at >= r.pos && at < r.end) {
                  reasons.set(at, true);
                  said = true;
                }
            if (!said) unexplained.push(`${rel(f)}:${from + 1}`);
          }
        }
        ts.forEachChild(n, visit);
      };
      visit(sf);
      for (const [at, used] of reasons) if (!used) stale.push(`${rel(f)}:${sf.getLineAndCharacterOfPosition(at).line + 1}`);
    }
    expect({ unexplained, stale }).toEqual({ unexplained: [], stale: [] });
  });
});

describe('module-level memory (docs/design.md, "Decision: the memos that may stay")', () => {
  /**
   * The module-level Maps and Sets that a module fills at run time (memos; constant tables are not
   * filled): each is a bounded memo of a pure function of a string, or a WeakMap keyed by the run's
   * own objects. A new one is a decision: it is added here and to the design's list.
   */
  const ALLOWED = [
    'emit/yaml-writer.ts quoted',
    'emit/yaml-writer.ts plainKeys',
    'expand/place.ts groupedCache',
    'expand/place.ts keys',
    'kubevirt/scheduler.ts scalarCache',
    'kubevirt/scheduler-filters.ts stateCache',
    'kubevirt/spec-validation.ts globs',
    'quantity.ts bytesCache',
    'quantity.ts parsedCache',
    'resolve/text.ts compiled',
    'resolve/text.ts parsed',
    'schema/hooks.ts tags',
    'site/filter.ts counted',
    'site/filter.ts decided',
    'validate/rules-kubevirt-support.ts classCache',
  ];

  it('every memo is on the list; a Map or Set memo is bounded by its size', () => {
    const found: string[] = [];
    const unbounded: string[] = [];
    for (const f of FILES) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/^(?:export )?const (\w+)(?::[^=]+)? = new (Map|Set|WeakMap|WeakSet)\b/gm)) {
        const [, name, kind] = m;
        if (!new RegExp(`\\b${name}\\.(set|add)\\(`).test(text)) continue;
        found.push(`${rel(f)} ${name}`);
        if ((kind === 'Map' || kind === 'Set') && !new RegExp(`\\b${name}\\.size\\b`).test(text)) unbounded.push(`${rel(f)} ${name}`);
      }
    }
    expect({ found: found.sort(), unbounded }).toEqual({ found: [...ALLOWED].sort(), unbounded: [] });
  });
});
