/**
 * The command reference (docs/commands.md) is made from the commands (src/cli/commands, a file per
 * command holding its declaration and its run) and must be what they say; the one registry lists
 * every command file once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { COMMANDS } from '../src/cli/commands';
import { commandReference } from '../src/cli/help';
import { REPO } from './helpers';

describe('docs/commands.md', () => {
  it('is what the declarations generate (npm run generate rewrites it)', () => {
    expect(readFileSync(path.join(REPO, 'docs', 'commands.md'), 'utf8')).toBe(commandReference());
  });

  it('the registry holds the command of every file of src/cli/commands, once, named as its file', () => {
    const files = readdirSync(path.join(REPO, 'src', 'cli', 'commands'))
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(COMMANDS.map((c) => c.name).sort()).toEqual(files);
    expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length);
  });

  it('every option of every command has its row, and every command its section', () => {
    const text = commandReference();
    for (const c of COMMANDS) {
      expect(text).toContain(`## itgen ${c.name}\n`);
      for (const o of c.options) expect(text).toContain(`| \`${o.flag}`);
    }
  });
});
