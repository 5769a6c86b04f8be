/**
 * kubevirt/go-json.ts against Go's own encoding/json (test/fixtures/go-json/README.md): the first
 * syntax error in Go's words, and the type errors of a hook sidecar list.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { hookSidecarListError } from '../src/kubevirt/go-json';

const DIR = path.join(__dirname, 'fixtures', 'go-json');

it('answers every case as Go 1.26 does', () => {
  const cases = readFileSync(path.join(DIR, 'cases.txt'), 'utf8').trim().split('\n');
  const answers = readFileSync(path.join(DIR, 'answers.txt'), 'utf8').trim().split('\n');
  expect(cases.length).toBe(answers.length);
  const ours = cases.map((l) =>
    (hookSidecarListError(JSON.parse(l) as string) ?? 'ok')
      .replace('hooks.HookSidecarList', '[]main.HookSidecar')
      .replace('hooks.HookSidecar', 'main.HookSidecar')
      .replace('v1.PullPolicy', 'string'),
  );
  expect(ours).toEqual(answers);
});
