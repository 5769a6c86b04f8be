/**
 * The command reference (docs/commands.md) is made from the command declarations (src/commands) and
 * must be what they say; the CLI runs exactly the declared commands, in the declared order.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { COMMANDS } from '../src/cli/commands';
import { COMMAND_SPECS, commandReference } from '../src/commands';
import { REPO } from './helpers';

describe('docs/commands.md', () => {
  it('is what the declarations generate (npm run generate rewrites it)', () => {
    expect(readFileSync(path.join(REPO, 'docs', 'commands.md'), 'utf8')).toBe(commandReference());
  });

  it('the CLI runs every declared command, in the declared order, with its declaration', () => {
    expect(COMMANDS.map((c) => c.name)).toEqual(COMMAND_SPECS.map((c) => c.name));
    for (const [i, c] of COMMANDS.entries()) expect({ ...c, run: undefined }).toEqual({ ...COMMAND_SPECS[i], run: undefined });
  });

  it('every option of every command has its row, and every command its section', () => {
    const text = commandReference();
    for (const c of COMMAND_SPECS) {
      expect(text).toContain(`## itgen ${c.name}\n`);
      for (const o of c.options) expect(text).toContain(`| \`${o.flag}`);
    }
  });
});
