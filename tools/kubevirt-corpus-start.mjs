// The KubeVirt corpus's VM cases (test/fixtures/kubevirt-corpus/cases.jsonl.gz, modes `expand` and
// `admit`) asked again of KubeVirt's whole path: the `preview` mode of itgen-oracle (the VM
// mutating and validating webhooks whole, the VM controller's start, the VMI webhooks and the
// launcher render), so that the corpus holds what a VM meets after the instancetype admitter too.
//
//   node tools/kubevirt-corpus-start.mjs cases DIR          writes DIR/cases.jsonl (the objects set, then one preview case per admit case)
//   ORACLE=... node tools/kubevirt-corpus-start.mjs answer DIR   writes DIR/answers.jsonl
//
// The answers are kept to each one's id, stage, message and causes. The oracle is built outside
// this repository (kubevirt-oracle's build.sh); gzip the two files into
// test/fixtures/kubevirt-corpus/ as cases-start.jsonl.gz and answers-start[-RELEASE].jsonl.gz.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { answerWithKubevirtOracle, corpusCommandLine } from './corpus-kit.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { mode, dir } = corpusCommandLine();
if (!dir || (mode !== 'cases' && mode !== 'answer')) {
  console.error('usage: kubevirt-corpus-start.mjs cases|answer DIR');
  process.exit(1);
}
if (mode === 'cases') {
  const lines = gunzipSync(readFileSync(path.join(repo, 'test', 'fixtures', 'kubevirt-corpus', 'cases.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const out = [];
  for (const c of lines) {
    if (c.mode === 'objects-set') out.push(c);
    else if (c.mode === 'admit' || c.mode === 'expand')
      out.push({
        id: c.id,
        mode: 'preview',
        category: c.category,
        vm: { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', ...c.vm },
        objectSets: c.objectSets ?? [],
        objects: c.objects ?? [],
        kubevirt: null,
      });
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'cases.jsonl'), out.map((c) => JSON.stringify(c)).join('\n') + '\n');
  console.log(`${out.length - 1} preview cases`);
} else {
  answerWithKubevirtOracle(dir);
  // Kept to what the replay compares: the stage, the message and the causes (the VMI and pod dropped).
  const file = path.join(dir, 'answers.jsonl');
  const kept = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((a) => a.mode !== 'objects-set')
    .map((a) => ({
      id: a.id,
      ...(a.error ? { error: a.error } : {}),
      ...(a.admit?.causes?.length ? { admit: { causes: a.admit.causes.map((c) => ({ message: c.message })) } } : {}),
    }));
  writeFileSync(file, kept.map((a) => JSON.stringify(a)).join('\n') + '\n');
}
