/**
 * Replays the VM admission corpus (test/fixtures/admission-corpus/, tools/admission-corpus.mjs,
 * answered by the oracle's `preview` mode: KubeVirt's VM webhooks, start path, VMI webhooks and
 * launch render) through itgen's own path for a VM (`previewVm`: the mutating webhook, admission,
 * the start), and says per case whether itgen reaches KubeVirt's verdict: started; refused at
 * admission with every one of KubeVirt's causes; or refused at the start (its stage and words).
 */
import { objectStore } from '../src/expand';
import { previewVm } from '../src/expand/judge';
import type { JsonObject } from '../src/json';
import { kubevirtConfig } from '../src/kubevirt/config';
import { readJsonLines, type PreviewCase } from './preview-corpus';

interface Answer {
  readonly id: string;
  readonly error?: { stage: string; message: string };
  readonly admit?: { causes?: { message: string; field: string }[] };
}

export interface AdmissionResult {
  readonly id: string;
  readonly category: string;
  readonly verdict: 'started' | 'admission' | 'start';
  readonly agree: boolean;
  readonly why: string;
}

const START_STAGES = new Set(['startVMI', 'vmiMutate', 'vmiAdmit', 'render']);

export function replayAdmission(dir: string, release?: string, answersFile = 'answers.jsonl.gz'): AdmissionResult[] {
  const cases = readJsonLines(`${dir}/cases.jsonl.gz`) as (PreviewCase & { mode: string })[];
  const answers = new Map((readJsonLines(`${dir}/${answersFile}`) as Answer[]).map((a) => [a.id, a]));
  const bundle = objectStore(cases[0]!.objects as JsonObject[]);
  return cases
    .filter((c) => c.mode === 'preview')
    .map((c) => {
      const a = answers.get(c.id)!;
      // The oracle's cluster has no StorageClass: persistent TPM and EFI state have nowhere to go.
      const own = objectStore((c.objects ?? []) as JsonObject[]);
      const store = {
        specObjects: bundle.specObjects,
        volumes: [...own.volumes, ...bundle.volumes],
        revisions: [],
        cluster: [],
        storageClassesGiven: true,
        networkAttachmentDefinitionsGiven: true,
      };
      const config = kubevirtConfig(c.kubevirt).config;
      const r = previewVm(c.vm, store, release !== undefined ? { ...config, release } : config, c.namespace ?? 'default');
      const verdict = !a.error ? 'started' : START_STAGES.has(a.error.stage) ? 'start' : 'admission';
      const mine = !('error' in r) ? 'started' : START_STAGES.has(r.stage) ? 'start' : 'admission';
      let why = '';
      if (verdict !== mine)
        why = `KubeVirt: ${verdict}${a.error ? ` (${a.error.stage}: ${a.error.message})` : ''}; itgen: ${mine}${'error' in r ? ` (${r.stage}: ${r.error})` : ''}`;
      else if (verdict === 'admission' && 'error' in r) {
        // Every one of KubeVirt's causes, in its words.
        // KubeVirt's words, the webhook's schema check's included (`... in body should be one of [A B]`).
        const theirs = (a.admit?.causes ?? []).map((x) => x.message);
        const ours = new Set((r.causes ?? []).map((x) => x.message));
        const missing = theirs.length > 0 ? theirs.filter((m) => !ours.has(m)) : r.error === a.error!.message ? [] : [a.error!.message];
        if (missing.length > 0) why = `missing KubeVirt's causes: ${missing.join(' | ')}; itgen: ${r.error}`;
      } else if (verdict === 'start' && 'error' in r && (r.stage !== a.error!.stage || r.error !== a.error!.message))
        why = `KubeVirt: ${a.error!.stage} ${a.error!.message}; itgen: ${r.stage} ${r.error}`;
      return { id: c.id, category: c.category, verdict, agree: why === '', why };
    });
}
