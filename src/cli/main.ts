#!/usr/bin/env node
import { existsSync, statSync } from '../load/reads';
import { findProjectRoot } from '../load/files';
import { readBounded } from '../load/limits';
import { guardOutput, printable, WORKFLOW_COMMAND_LINE } from '../format';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { parseCommandLine } from './parse';
import { EXIT_INTERNAL, EXIT_OK, EXIT_USER, report, type Command, type Io } from './command';
import { diag } from '../diagnostics';
import { COMMANDS } from './commands';
import { commandUsage, usage } from './help';
import { VERSION } from '../version';

export { EXIT_INTERNAL, EXIT_OK, EXIT_USER, type Io } from './command';

/** `itgen help [COMMAND]` is the one command that is about the others. */
const HELP: Command = {
  name: 'help',
  synopsis: 'help [COMMAND]',
  summary: 'this text, or the usage of one command',
  options: [],
  projectless: true,
  accept: (line) => (line.positionals.length > 1 ? 'help takes at most one command' : undefined),
  run: ({ io, line }) => printHelp(io, line.positionals[0]),
};

function printHelp(io: Io, topic: string | undefined): number {
  if (topic === undefined) {
    io.out(usage(COMMANDS));
    return EXIT_OK;
  }
  const command = COMMANDS.find((c) => c.name === topic);
  if (!command) {
    io.err(`unknown command \`${topic}\`\n\n${usage(COMMANDS)}`);
    return EXIT_USER;
  }
  io.out(commandUsage(command));
  return EXIT_OK;
}

/**
 * Every byte a command prints passes `guardOutput` (format.ts): no raw control character, no line
 * a CI runner would take for a workflow command, whatever a name or value in the input holds.
 * Only `report` in `--format github` prints workflow commands, through `workflow`.
 */
function guarded(io: Io): Io {
  return {
    ...io,
    out: (s) => io.out(guardOutput(s, false)),
    err: (s) => io.err(guardOutput(s, io.color)),
    workflow: (s) =>
      (io.workflow ?? io.out)(
        s
          .split('\n')
          .map((line) => (WORKFLOW_COMMAND_LINE.test(line) && /^::(error|warning|notice) /.test(line) ? printable(line, true) : guardOutput(line, false)))
          .join('\n'),
      ),
  };
}

/** Runs one command line against `io`; returns the exit code. The library behind every command. */
export function run(argv: readonly string[], unguarded: Io): number {
  const io = guarded(unguarded);
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.out(`itgen ${VERSION}`);
    return EXIT_OK;
  }
  const parsed = parseCommandLine(argv, [...COMMANDS, HELP]);
  if ('error' in parsed) {
    // A mistake in one command's arguments gets that command's usage; anything else the command list.
    return commandLineError(io, argv, parsed.error, parsed.command && parsed.command !== HELP ? commandUsage(parsed.command) : usage(COMMANDS));
  }
  if ('help' in parsed) return printHelp(io, parsed.topic);
  const { command } = parsed;
  // A generator named as an argument is one named with -g.
  const line = command.generatorArguments
    ? { ...parsed.line, global: { ...parsed.line.global, generators: [...parsed.line.global.generators, ...parsed.line.positionals] }, positionals: [] }
    : parsed.line;
  // The project: -C DIR, else the nearest directory upward with generators/ (as git and npm find
  // theirs); commands that make a project (init, migrate presets) work where they are typed.
  const root =
    line.global.root !== undefined
      ? path.resolve(io.cwd, line.global.root)
      : command.projectless || command.inPlace
        ? path.resolve(io.cwd)
        : findProjectRoot(io.cwd);
  if (!command.projectless && (!existsSync(root) || !statSync(root).isDirectory())) {
    return commandLineError(io, argv, `-C ${line.global.root}: no such directory`);
  }
  return command.run({ io, line, global: line.global, root });
}

/** The `--format` an argument list asks for, read without the parser (which may be what failed). */
function requestedFormat(argv: readonly string[]): string {
  let format = 'text';
  argv.forEach((a, i) => {
    if (a === '--format' && i + 1 < argv.length) format = argv[i + 1]!;
    else if (a.startsWith('--format=')) format = a.slice('--format='.length);
  });
  return format;
}

/**
 * A command line itgen cannot run (IT1011): in `--format json` or `github` a diagnostic like any
 * other, so a CI step that reads JSON never meets prose; in text the message and the usage.
 */
function commandLineError(io: Io, argv: readonly string[], message: string, usageText?: string): number {
  const format = requestedFormat(argv);
  if (format === 'json' || format === 'github' || format === 'gitlab') {
    report(io, format, [diag('IT1011', message)], io.cwd);
    return EXIT_USER;
  }
  io.err(usageText === undefined ? message : `${message}\n\n${usageText}`);
  return EXIT_USER;
}

/** The process entry: real stdio, exit code on the process. Also the snapshot's main. */
export function main(argv: readonly string[] = process.argv.slice(2)): void {
  tuneForShortRuns();
  // A reader that stops early (`itgen build | head`) closes the pipe: end quietly, as a Unix filter
  // does, with the command's own exit code, instead of an unhandled EPIPE and a stack trace. Each
  // stream is made, and guarded, on its first write: node builds process.stdout on first use (1 ms),
  // which a generate that prints nothing there does not pay.
  const guarded = new Set<NodeJS.WriteStream>();
  const guard = (stream: NodeJS.WriteStream): NodeJS.WriteStream => {
    if (!guarded.has(stream)) {
      guarded.add(stream);
      stream.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code !== 'EPIPE') throw e;
        process.exit(typeof process.exitCode === 'number' ? process.exitCode : EXIT_OK);
      });
    }
    return stream;
  };
  let code: number;
  try {
    code = run(argv, {
      out: (s) => guard(process.stdout).write(s.endsWith('\n') ? s : `${s}\n`),
      err: (s) => guard(process.stderr).write(s.endsWith('\n') ? s : `${s}\n`),
      cwd: process.cwd(),
      color: Boolean(process.stderr.isTTY) && !process.env['NO_COLOR'],
      terminal: Boolean(process.stderr.isTTY),
      // Bounded: a stream that never ends is refused after MAX_INPUT_BYTES (load/limits.ts).
      stdin: () => readBounded(0).toString('utf8'),
    });
  } catch (e) {
    // The message may quote input (a path, a value): escaped, shortened, and never a stack unless asked.
    const message = printable(String((e as Error | undefined)?.message ?? e), true);
    process.stderr.write(
      `itgen: internal error: ${message.length > 300 ? `${message.slice(0, 300)}...` : message}\nplease report this with the input that caused it\n`,
    );
    if (process.env['ITGEN_DEBUG']) process.stderr.write(`${(e as Error).stack ?? ''}\n`);
    code = EXIT_INTERNAL;
  }
  process.exitCode = code;
}

if (require.main === module) main();

/**
 * Most runs of the CLI last a tenth of a second, where V8's optimizing compiler costs more than it
 * saves: on V8 11 (Node 20) its interrupt budget, the work a function does before it is considered
 * for optimization, is raised from 132 KB to 500 KB of bytecode. Measured A/B in alternating fresh
 * processes: a generate of common-instancetypes 100.6 ms -> 84.0 ms; the long runs of `npm run
 * bench` (matrix of 10,000 objects, expand of 10,000 documents, a migration of 2,000 VMs) still
 * optimize what they repeat and keep their targets. Later V8s count invocations instead and know no
 * such flag (setting it would print an error): left as they are.
 */
function tuneForShortRuns(): void {
  if (Number(process.versions.v8.split('.')[0]) !== 11) return;
  try {
    setFlagsFromString('--interrupt-budget=500000');
  } catch {
    /* a V8 that refuses it runs as it would anyway */
  }
}
