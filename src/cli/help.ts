/**
 * The texts made from the commands' declarations: the usage `itgen help` prints and docs/commands.md,
 * the command reference (`npm run generate` writes it; test/commands-reference.test.ts holds it to
 * the declarations).
 */
import { COMMANDS } from './commands';
import { describeOptions, GLOBAL_OPTIONS, type CommandSpec, type OptionSpec } from './parse';

const EXIT_CODES = 'exit codes: 0 ok (warnings allowed), 1 errors in the input (or differences, for check), 2 internal failure';

/** `itgen help`: every command with its summary, then the options every command takes. */
export function usage(commands: readonly CommandSpec[] = COMMANDS): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 3;
  const list = commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`).join('\n');
  return `usage: itgen <command> [options]   (itgen help COMMAND: its options)\n\ncommands:\n${list}\n  ${'help'.padEnd(width)}this text, or with a command its usage\n\noptions of every command (before or after it):\n${describeOptions(GLOBAL_OPTIONS)}\n\n${EXIT_CODES}`;
}

/** `itgen help COMMAND` and `itgen COMMAND --help`. */
export function commandUsage(command: CommandSpec): string {
  const own = command.options.length > 0 ? `\n\noptions:\n${describeOptions(command.options)}` : '';
  const details = command.details ? `\n\n${command.details}` : '';
  return `usage: itgen ${command.synopsis}\n\n${command.summary}${details}${own}\n\noptions of every command:\n${describeOptions(GLOBAL_OPTIONS)}\n\n${EXIT_CODES}`;
}

/** A Markdown table cell: pipes escaped, one line. */
const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function optionTable(options: readonly OptionSpec[]): string {
  const rows = options.map(
    (o) =>
      `| ${cell(`\`${o.flag}${o.value ? ` ${o.value}` : ''}\``)}${o.short ? ` (\`${o.short}\`)` : ''} | ${cell(o.help)}${o.repeatable && !/repeatable/.test(o.help) ? ' (repeatable)' : ''} |`,
  );
  return `| option | what |\n| --- | --- |\n${rows.join('\n')}\n`;
}

/** docs/commands.md: every command's synopsis, summary, details and options, made from the declarations. */
export function commandReference(commands: readonly CommandSpec[] = COMMANDS): string {
  const toc = commands.map((c) => `- [\`${c.name}\`](#itgen-${c.name}): ${c.summary}`).join('\n');
  const each = commands.map((c) =>
    [
      `## itgen ${c.name}`,
      '',
      '```',
      `itgen ${c.synopsis}`,
      '```',
      '',
      `${c.summary[0]!.toUpperCase()}${c.summary.slice(1)}.`,
      ...(c.details ? ['', '```text', c.details, '```'] : []),
      ...(c.options.length > 0 ? ['', optionTable(c.options).trimEnd()] : []),
      '',
    ].join('\n'),
  );
  return [
    '<!-- Generated from src/cli/commands/ by `npm run generate`; test/commands-reference.test.ts holds it to them. Do not edit. -->',
    '# Command reference',
    '',
    toc,
    '',
    '## Options of every command',
    '',
    'Before or after the command word (`itgen -C dir validate`, as with git).',
    '',
    optionTable(GLOBAL_OPTIONS).trimEnd(),
    '',
    `${EXIT_CODES[0]!.toUpperCase()}${EXIT_CODES.slice(1)}.`,
    '',
    ...each,
  ].join('\n');
}
