import { describeOptions, GLOBAL_OPTIONS } from '../commands/spec';
import type { Command } from './command';

const EXIT_CODES = 'exit codes: 0 ok (warnings allowed), 1 errors in the input (or differences, for check), 2 internal failure';

/** `itgen help`: every command with its summary, then the options every command takes. */
export function usage(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 3;
  const list = commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`).join('\n');
  return `usage: itgen <command> [options]   (itgen help COMMAND: its options)\n\ncommands:\n${list}\n  ${'help'.padEnd(width)}this text, or with a command its usage\n\noptions of every command (before or after it):\n${describeOptions(GLOBAL_OPTIONS)}\n\n${EXIT_CODES}`;
}

/** `itgen help COMMAND` and `itgen COMMAND --help`. */
export function commandUsage(command: Command): string {
  const own = command.options.length > 0 ? `\n\noptions:\n${describeOptions(command.options)}` : '';
  const details = command.details ? `\n\n${command.details}` : '';
  return `usage: itgen ${command.synopsis}\n\n${command.summary}${details}${own}\n\noptions of every command:\n${describeOptions(GLOBAL_OPTIONS)}\n\n${EXIT_CODES}`;
}
