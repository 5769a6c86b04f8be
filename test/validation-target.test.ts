/** targetKubevirt: a patch release targets its minor release; malformed releases are refused. */
import path from 'node:path';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { compile } from '../src/pipeline';
import { REPO, removeDir, scratchProject } from './helpers';

function withTarget(target: string): ReturnType<typeof compile> {
  const dir = scratchProject({});
  cpSync(path.join(REPO, 'test', 'fixtures', 'minimal'), dir, { recursive: true });
  const gen = path.join(dir, 'generators', 'minimal.yaml');
  writeFileSync(gen, `${readFileSync(gen, 'utf8')}targetKubevirt: ${target}\n`);
  const r = compile(dir, 'generators/minimal.yaml');
  removeDir(dir);
  return r;
}

describe('targetKubevirt', () => {
  it('accepts a patch release of a known minor', () => {
    expect(withTarget('v1.9.1').diagnostics).toEqual([]);
  });

  it('still finds fields newer than a patch release of an older minor', () => {
    // preferredArchitecture arrived in v1.7.0; the minimal fixture's `distro` uses architectures.
    expect(withTarget('v1.6.3').diagnostics.map((d) => d.code)).toContain('IT6001');
  });

  it('refuses a malformed release with a schema diagnostic', () => {
    expect(withTarget('v1.09').diagnostics.map((d) => d.code)).toEqual(['IT1203']);
  });
});
