#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { globSync } from 'glob';
import { diag, hasErrors, type Diagnostic } from '../diagnostics';
import { writeTree, readTree } from '../emit/write';
import { compile, type CompileResult } from '../pipeline';
import { explainObject } from '../render/explain';
import { catalogJsonSchema } from '../schema/catalog';
import { formatGithub, formatJson, formatText, summary, type OutputFormat } from './format';
import { parseArgs, USAGE, type ParsedArgs } from './args';
import { diffTrees } from '../emit/drift';

export const EXIT_OK = 0;
export const EXIT_USER = 1;
export const EXIT_INTERNAL = 2;

interface Io {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
  readonly cwd: string;
  readonly color: boolean;
}

function generatorFiles(root: string, args: ParsedArgs): string[] {
  if (args.generators.length > 0) return args.generators;
  return globSync('generators/*.{yaml,yml}', { cwd: root, posix: true }).sort();
}

function report(io: Io, format: OutputFormat, diagnostics: readonly Diagnostic[], root: string): void {
  if (format === 'json') {
    io.out(formatJson(diagnostics));
    return;
  }
  if (diagnostics.length === 0) return;
  if (format === 'github') {
    io.out(formatGithub(diagnostics));
    return;
  }
  const cache = new Map<string, string[] | undefined>();
  const lines = (file: string): string[] | undefined => {
    if (!cache.has(file)) {
      try {
        cache.set(file, readFileSync(path.resolve(root, file), 'utf8').split(/\r?\n/));
      } catch {
        cache.set(file, undefined);
      }
    }
    return cache.get(file);
  };
  io.err(formatText(diagnostics, lines, io.color));
  io.err(summary(diagnostics));
}

function strictify(diagnostics: readonly Diagnostic[], strict: boolean): Diagnostic[] {
  return strict ? diagnostics.map((d) => (d.severity === 'warning' ? { ...d, severity: 'error' as const, message: `${d.message} (--strict)` } : d)) : [...diagnostics];
}

function exitCodeFor(diagnostics: readonly Diagnostic[]): number {
  if (diagnostics.some((d) => d.code.startsWith('IT9'))) return EXIT_INTERNAL;
  return hasErrors(diagnostics) ? EXIT_USER : EXIT_OK;
}

function compileAll(root: string, args: ParsedArgs): { results: CompileResult[]; diagnostics: Diagnostic[] } {
  const files = generatorFiles(root, args);
  if (files.length === 0) {
    return { results: [], diagnostics: [diag('IT1009', 'no generator found: pass --generator FILE or add generators/*.yaml')] };
  }
  const results = files.map((f) => compile(root, f));
  const diagnostics = strictify(results.flatMap((r) => r.diagnostics), args.strict);
  return { results, diagnostics };
}

export function run(argv: readonly string[], io: Io): number {
  const args = parseArgs(argv);
  if ('error' in args) {
    io.err(`${args.error}\n\n${USAGE}`);
    return EXIT_USER;
  }
  if (args.command === 'help') {
    io.out(USAGE);
    return EXIT_OK;
  }
  const root = path.resolve(io.cwd, args.root ?? '.');
  switch (args.command) {
    case 'schema': {
      io.out(JSON.stringify(catalogJsonSchema(), null, 2));
      return EXIT_OK;
    }
    case 'validate': {
      const { diagnostics } = compileAll(root, args);
      report(io, args.format, diagnostics, root);
      return exitCodeFor(diagnostics);
    }
    case 'generate': {
      const { results, diagnostics } = compileAll(root, args);
      report(io, args.format, diagnostics, root);
      const code = exitCodeFor(diagnostics);
      if (code !== EXIT_OK) {
        if (args.format === 'text') io.err('nothing written');
        return code;
      }
      // Everything validated: only now touch the disk, one generator directory at a time, each atomically.
      for (const r of results) {
        try {
          writeTree(path.resolve(root, r.generator!.outputDir), r.files);
        } catch (e) {
          report(io, args.format, [diag('IT9002', `cannot write ${r.generator!.outputDir}: ${(e as Error).message}`)], root);
          return EXIT_INTERNAL;
        }
        if (args.format === 'text') io.err(`${r.generator!.name}: wrote ${r.objects.length} objects to ${r.generator!.outputDir}`);
      }
      return EXIT_OK;
    }
    case 'check': {
      const { results, diagnostics } = compileAll(root, args);
      const all = [...diagnostics];
      if (!hasErrors(diagnostics)) {
        for (const r of results) {
          const dir = r.generator!.outputDir;
          const changes = diffTrees(readTree(path.resolve(root, dir)), r.files);
          for (const c of changes) {
            all.push(
              diag('IT7001', `${dir}/${c.path} ${c.change === 'added' ? 'is missing' : c.change === 'removed' ? 'should not exist' : 'differs from what the catalog generates'}`, undefined, {
                hint: 'run `itgen generate` and commit the result',
              }),
            );
          }
        }
      }
      report(io, args.format, all, root);
      return exitCodeFor(all);
    }
    case 'explain': {
      const { results, diagnostics } = compileAll(root, args);
      const matches = results.flatMap((r) => r.objects.filter((o) => o.manifest.metadata.name === args.name && (args.kind === undefined || o.manifest.kind === args.kind)));
      if (matches.length === 0) {
        report(io, args.format, diagnostics, root);
        io.err(`no object named \`${args.name}\``);
        return EXIT_USER;
      }
      // One explanation per object; the namespaced twin is the same object under another kind.
      const seen = new Set<object>();
      const texts: string[] = [];
      for (const m of matches) {
        if (seen.has(m.source)) continue;
        seen.add(m.source);
        texts.push(explainObject(m));
      }
      io.out(texts.join('---\n'));
      return EXIT_OK;
    }
  }
}

function main(): void {
  let code: number;
  try {
    code = run(process.argv.slice(2), {
      out: (s) => process.stdout.write(s.endsWith('\n') ? s : `${s}\n`),
      err: (s) => process.stderr.write(s.endsWith('\n') ? s : `${s}\n`),
      cwd: process.cwd(),
      color: Boolean(process.stderr.isTTY) && !process.env['NO_COLOR'],
    });
  } catch (e) {
    process.stderr.write(`itgen: internal error: ${(e as Error).message}\nplease report this with the input that caused it\n`);
    if (process.env['ITGEN_DEBUG']) process.stderr.write(`${(e as Error).stack ?? ''}\n`);
    code = EXIT_INTERNAL;
  }
  process.exitCode = code;
}

if (require.main === module) main();
