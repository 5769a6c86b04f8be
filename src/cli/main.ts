#!/usr/bin/env node
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseCommandLine } from './args';
import { EXIT_INTERNAL, EXIT_OK, EXIT_USER, type Command, type Io } from './command';
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

/** Runs one command line against `io`; returns the exit code. The library behind every command. */
export function run(argv: readonly string[], io: Io): number {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.out(`itgen ${VERSION}`);
    return EXIT_OK;
  }
  const parsed = parseCommandLine(argv, [...COMMANDS, HELP]);
  if ('error' in parsed) {
    // A mistake in one command's arguments gets that command's usage; anything else the command list.
    io.err(`${parsed.error}\n\n${parsed.command && parsed.command !== HELP ? commandUsage(parsed.command) : usage(COMMANDS)}`);
    return EXIT_USER;
  }
  if ('help' in parsed) return printHelp(io, parsed.topic);
  const { command } = parsed;
  // A generator named as an argument is one named with -g.
  const line = command.generatorArguments
    ? { ...parsed.line, global: { ...parsed.line.global, generators: [...parsed.line.global.generators, ...parsed.line.positionals] }, positionals: [] }
    : parsed.line;
  const root = path.resolve(io.cwd, line.global.root ?? '.');
  if (!command.projectless && (!existsSync(root) || !statSync(root).isDirectory())) {
    io.err(`-C ${line.global.root}: no such directory`);
    return EXIT_USER;
  }
  return command.run({ io, line, global: line.global, root });
}

/** The process entry: real stdio, exit code on the process. Also the snapshot's main. */
export function main(argv: readonly string[] = process.argv.slice(2)): void {
  let code: number;
  try {
    code = run(argv, {
      out: (s) => process.stdout.write(s.endsWith('\n') ? s : `${s}\n`),
      err: (s) => process.stderr.write(s.endsWith('\n') ? s : `${s}\n`),
      cwd: process.cwd(),
      color: Boolean(process.stderr.isTTY) && !process.env['NO_COLOR'],
      stdin: () => readFileSync(0, 'utf8'),
    });
  } catch (e) {
    process.stderr.write(`itgen: internal error: ${(e as Error).message}\nplease report this with the input that caused it\n`);
    if (process.env['ITGEN_DEBUG']) process.stderr.write(`${(e as Error).stack ?? ''}\n`);
    code = EXIT_INTERNAL;
  }
  process.exitCode = code;
}

if (require.main === module) main();
