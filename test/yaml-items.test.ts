/**
 * load/yaml-items.ts: a YAML List dump read entry by entry gives what the whole-file reader gives
 * (pods slimmed, as the JSON stream slims them), at the same places; what is not such a List is
 * left to the whole-file reader; a YAML dump past its bound is refused before it is read.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync, ftruncateSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { slimPod } from '../src/load/json-items';
import { loadClusterDump, MAX_YAML_DUMP_BYTES } from '../src/load/manifests';
import { locate, parseSource } from '../src/load/source';
import { yamlListDump } from '../src/load/yaml-items';

const DUMP = [
  'apiVersion: v1',
  'kind: List',
  'items:',
  '- apiVersion: v1',
  '  kind: Node',
  '  metadata:',
  '    name: n1',
  '  status:',
  '    allocatable: {cpu: "8", memory: 32Gi}',
  '# a comment between entries',
  '- apiVersion: v1',
  '  kind: Pod',
  '  metadata:',
  '    name: p1',
  '    namespace: a',
  '    managedFields:',
  '    - fieldsV1:',
  '        k:{"name":"app"}:',
  '          .: {}',
  '  spec:',
  '    nodeName: n1',
  '    containers:',
  '    - args:',
  '      - --port=8080',
  '      command:',
  '      - |',
  '        echo start',
  '      name: app',
  '      resources:',
  '        requests: {cpu: 100m, memory: 128Mi}',
  '  status:',
  '    phase: Running',
  'metadata:',
  '  resourceVersion: ""',
  '',
].join('\n');

describe('a YAML List dump, entry by entry', () => {
  const whole = parseSource('dump.yaml', Buffer.from(DUMP));
  const items = (whole.docs[0]!.value as { items: Record<string, unknown>[] }).items;

  it('gives the objects the whole-file reader gives, pods slimmed', () => {
    const r = yamlListDump(DUMP, 'dump.yaml')!;
    expect(r.diagnostics).toEqual([]);
    expect(r.objects).toEqual([items[0], slimPod(items[1]!)]);
  });

  it('places a field where the whole-file reader places it', () => {
    const r = yamlListDump(DUMP, 'dump.yaml')!;
    for (const [index, p] of [
      [0, ['status', 'allocatable', 'memory']],
      [1, ['spec', 'containers', 0, 'args', 0]],
      [1, ['status', 'phase']],
    ] as const)
      expect(r.at(index, p)).toEqual(locate(whole.docs[0]!, ['items', index, ...p]));
  });

  it('places a syntax error of an entry in the dump', () => {
    const broken = DUMP.replace('    name: p1', '    name: [p1');
    const r = yamlListDump(broken, 'dump.yaml')!;
    expect(r.diagnostics.map((d) => `${d.location?.line}:${d.code}`)).toEqual(expect.arrayContaining([expect.stringMatching(/^1[4-9]:IT1002$/)]));
  });

  it('leaves what is not one List of entries to the whole-file reader', () => {
    expect(yamlListDump(DUMP.replace('kind: List', 'kind: PodList'), 'dump.yaml')).toBeUndefined();
    expect(yamlListDump(`${DUMP}---\nkind: Node\n`, 'dump.yaml')).toBeUndefined();
    expect(yamlListDump(DUMP.replace(/^- /gm, '  - ').replace(/^ {2}(?! *- )/gm, '    '), 'dump.yaml')).toBeUndefined();
    expect(yamlListDump('kind: Node\nmetadata: {name: n1}\n', 'dump.yaml')).toBeUndefined();
  });
});

describe('a YAML dump past its bound', () => {
  it('is refused before it is read, with the bound and the JSON form named', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-yaml-bound-'));
    try {
      const file = path.join(dir, 'pods.yaml');
      const fd = openSync(file, 'w');
      writeSync(fd, 'apiVersion: v1\nkind: List\nitems:\n');
      ftruncateSync(fd, MAX_YAML_DUMP_BYTES + 1);
      closeSync(fd);
      const r = loadClusterDump(dir, 'pods.yaml', () => '');
      expect(r.objects).toEqual([]);
      expect(r.diagnostics.map((d) => `${d.code} ${d.message} | ${d.hint ?? ''}`)).toEqual([
        'IT1001 cannot read `pods.yaml`: a YAML dump larger than 128 MiB is more than itgen reads in YAML | give it as JSON (kubectl get ... -o json), which itgen reads item by item up to 1 GiB',
      ]);
      writeFileSync(file, DUMP);
      expect(loadClusterDump(dir, 'pods.yaml', () => '').objects.map((o) => o['kind'])).toEqual(['Node', 'Pod']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
