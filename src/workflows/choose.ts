/**
 * `itgen select --intent/--os/--size`: one answer, explained, or a refusal with alternatives. The
 * candidates are the catalog's instance types that meet the ask (vCPUs, memory, architecture, GPU,
 * hugepages, the intent's classes); only the pairs the one judge admits with the preference count
 * (the explorer's pair verdicts, matrix/index.ts); ordered least specialised first (no dedicated
 * CPUs, hugepages, GPUs or host devices unless asked), then the smallest (vCPUs, memory), then the
 * name. An impossible ask is refused with the nearest admitted pairs, never substituted in silence.
 */
import { closest, diag, type Diagnostic } from '../diagnostics';
import { kubeObject, type JsonObject, type KubeObjectJson } from '../json';
import type { Project } from '../project';
import { parseRange, pairOf, selectInstancetypes, type SiteData, type SiteInstancetype, type SitePreference } from '../site';
import { catalogsSiteData, type SelectListJson, type SelectQuery } from './select';
import { catalogsOrReport, fromNote, type Report } from './report';
import type { Catalogs } from '../project';
import type { CatalogWords } from '../resolve/types';
import { mappingToYaml } from '../emit/serialize';
import { knownIntents, norm, preferenceForWord } from './choose-words';
export { knownIntents, preferenceForWord, type IntentMeaning } from './choose-words';
import { withNodes } from '../expand/fit';
import { fitPod } from '../kubevirt/scheduler-filters';
import { quotasOf } from '../expand/fit-quota';
import { previewVm } from '../expand/judge';
import { quotaRoom, type QuotaState } from '../kubevirt/quota';
import type { ObjectStore } from '../expand/references';
import type { ClusterDefaults } from '../kubevirt/config';
import { KINDS_OF } from '../schema/kubevirt-api';
import { specialisation } from '../expand/templates';

/**
 * What is asked, as typed (by a person on the command line, or an agent through `itgen mcp`): the
 * list's own filters (SelectQuery: vCPUs, memory, architecture, GPU, hugepages, dedicated CPUs, the
 * preference, families, classes, words, deprecated ones let in), and what only a decision reads.
 */
export interface ChooseAsk extends Omit<SelectQuery, 'decidingOnly'> {
  readonly intent?: string;
  readonly os?: string;
  readonly size?: string;
  /** The kinds to name: cluster-wide (default, where the catalog has them) or the namespaced ones. */
  readonly scope?: 'cluster' | 'namespaced';
  /** The cluster's nodes (`kubectl get nodes -o yaml`) and what runs on them: the answer must fit. */
  readonly nodes?: string;
  readonly pods?: string;
}

export interface ChosenInstancetype {
  readonly name: string;
  readonly kind: string;
  readonly cpu: number;
  readonly memory: string;
  readonly class: string;
}

export interface PassedOver {
  readonly instancetype: string;
  /** Why not: KubeVirt's words for the pair, or what the ask excludes. */
  readonly reason: string;
}

export interface ChooseReport extends Report {
  /** The intent and OS words as the catalog reads them. */
  readonly understood?: { readonly intent: string; readonly classes: readonly string[]; readonly preference: string };
  readonly answer?: {
    readonly instancetype: ChosenInstancetype;
    readonly preference: string;
    readonly why: readonly string[];
    readonly vm: JsonObject;
    /** With nodes: the nodes its launcher pod fits on (kube-scheduler's filters). */
    readonly fits?: readonly string[];
  };
  readonly passedOver: readonly PassedOver[];
  readonly refusal?: { readonly message: string; readonly alternatives: readonly { readonly instancetype: ChosenInstancetype; readonly preference: string }[] };
}

/** How specialised each instance type is (expand/templates.ts `specialisation`, the order a template's sweep uses too), by name among the objects. */
function specialisationCounts(store: ObjectStore): (it: SiteInstancetype) => number {
  const counts = new Map<string, number>();
  for (const o of store.specObjects)
    if ((o.kind === KINDS_OF.instancetype.cluster || o.kind === KINDS_OF.instancetype.namespaced) && !counts.has(o.name)) counts.set(o.name, specialisation(o));
  return (it) => counts.get(it.name) ?? 0;
}

const orderBy =
  (specialised: (it: SiteInstancetype) => number) =>
  (a: SiteInstancetype, b: SiteInstancetype): number =>
    specialised(a) - specialised(b) || a.cpu - b.cpu || a.memoryBytes - b.memoryBytes || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

const chosen = (it: SiteInstancetype, scope?: 'cluster' | 'namespaced'): ChosenInstancetype => ({
  name: it.name,
  kind: scope !== 'namespaced' && it.scopes.includes('cluster') ? 'VirtualMachineClusterInstancetype' : 'VirtualMachineInstancetype',
  cpu: it.cpu,
  memory: it.memory,
  class: it.class,
});

/** A VM naming the pair, ready to apply (its disks and networks are the user's). */
function vmSnippet(it: ChosenInstancetype, preference: SitePreference, scope?: 'cluster' | 'namespaced'): JsonObject {
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachine',
    metadata: { name: 'my-vm' },
    spec: {
      runStrategy: 'Halted',
      instancetype: { kind: it.kind, name: it.name },
      preference: { kind: scope === 'namespaced' ? 'VirtualMachinePreference' : 'VirtualMachineClusterPreference', name: preference.name },
      template: { spec: { domain: { devices: {} } } },
    },
  };
}

/** The decision: the ask read, the candidates judged, one answer or a refusal with alternatives. */
export function choose(project: Project, ask: ChooseAsk): ChooseReport {
  const got = catalogsOrReport(project);
  if (!got.ok) return { ...got.report, passedOver: [] };
  const read = dataOf(got.catalogs, project, ask);
  return 'passedOver' in read ? read : chooseIn(read, ask);
}

/** What deciding reads of a project's catalogs: the explorer's data, read once for many asks. */
export interface ChooseData {
  readonly data: SiteData;
  /** What a VM's launcher pod is rendered from: the objects (with the nodes, when given) and the configuration. */
  readonly store: ObjectStore;
  readonly config: ClusterDefaults;
  /** The namespace's ResourceQuotas among the --with files (the VM's namespace: `default`). */
  readonly quota?: readonly QuotaState[];
  /** With nodes given: the nodes and what runs on them. */
  readonly cluster?: { readonly nodes: readonly JsonObject[]; readonly pods: readonly JsonObject[] };
  /** The words the catalogs declare (`Catalog.words`), merged; none: the built-in ones. */
  readonly words: CatalogWords;
  readonly catalogs: { readonly from: string; readonly diagnostics: readonly Diagnostic[] };
}

/** The catalogs' data for `chooseIn`, or the report that says why they cannot be read. */
export function chooseData(project: Project, cluster: Pick<ChooseAsk, 'nodes' | 'pods'> = {}): ChooseData | ChooseReport {
  const got = catalogsOrReport(project);
  if (!got.ok) return { ...got.report, passedOver: [] };
  return dataOf(got.catalogs, project, cluster);
}

function dataOf(catalogs: Catalogs, project: Project, ask: Pick<ChooseAsk, 'nodes' | 'pods'>): ChooseData | ChooseReport {
  let cluster: ChooseData['cluster'];
  if (ask.nodes !== undefined) {
    const nodes = project.clusterDump(ask.nodes, 'Node');
    const pods = ask.pods !== undefined ? project.clusterDump(ask.pods, 'Pod') : undefined;
    const problems = [...nodes.diagnostics, ...(pods?.diagnostics ?? [])];
    if (problems.some((d) => d.severity === 'error')) return { diagnostics: problems, notes: [], passedOver: [] };
    cluster = { nodes: nodes.objects, pods: pods?.objects ?? [] };
  }
  // The words of every catalog read, merged (a later catalog's word wins).
  const intents: Record<string, { classes?: readonly string[] | undefined; families?: readonly string[] | undefined }> = {};
  const oses: Record<string, string> = {};
  for (const s of catalogs.sources) {
    Object.assign(intents, s.catalog.words?.intents ?? {});
    Object.assign(oses, s.catalog.words?.os ?? {});
  }
  const states = quotasOf(catalogs.store).resource.get('default') ?? [];
  return {
    store: cluster ? withNodes(catalogs.store, cluster.nodes) : catalogs.store,
    config: project.config(),
    ...(cluster ? { cluster } : {}),
    ...(states.length > 0 ? { quota: states } : {}),
    data: catalogsSiteData(catalogs, project.config()),
    words: { ...(Object.keys(intents).length > 0 ? { intents } : {}), ...(Object.keys(oses).length > 0 ? { os: oses } : {}) },
    catalogs: { from: catalogs.from, diagnostics: catalogs.diagnostics },
  };
}

/** The decision over data read once (the corpus's asks, an agent's session). */
// Over 80 lines: each step of the decision with the words it says (the ask refused, then the candidates, then the answer or the refusal).
export function chooseIn(input: ChooseData, ask: ChooseAsk): ChooseReport {
  const fail = (message: string, hint?: string): ChooseReport => ({
    diagnostics: [diag('IT1011', message, undefined, hint ? { hint } : {})],
    notes: [],
    passedOver: [],
  });
  const { data } = input;
  const got = { catalogs: input.catalogs };
  const specialised = specialisationCounts(input.store);
  const order = orderBy(specialised);
  const intents = knownIntents(data, input.words);
  // Without an intent, general purpose; unless families or classes are named, which say it themselves.
  const named = (ask.families ?? []).length > 0 || (ask.classes ?? []).length > 0;
  const intentWord = norm(ask.intent ?? (intents.has('general') && !named ? 'general' : ''));
  const meaning = intentWord === '' ? { classes: [], families: [] } : intents.get(intentWord);
  if (meaning === undefined) {
    const known = [...intents.keys()];
    const meant = closest(intentWord, known);
    return fail(`--intent: \`${ask.intent}\` is not an intent of ${got.catalogs.from}`, `${meant ? `did you mean ${meant}? ` : ''}known: ${known.join(', ')}`);
  }
  const arch = ask.arch;
  const osWord = ask.preference ?? ask.os;
  if (osWord === undefined) return fail('select chooses a pair: give the guest OS (--os windows.11, --os rhel) or --preference NAME');
  const classes = meaning.classes;
  const prefName = ask.preference ?? preferenceForWord(osWord, arch, data.preferences, input.words.os);
  const preference = data.preferences.find((p) => p.name === prefName);
  if (!preference) {
    // The OS is there, for other architectures: say which.
    const elsewhere = arch !== undefined ? preferenceForWord(osWord, undefined, data.preferences, input.words.os) : undefined;
    if (elsewhere !== undefined) {
      const variants = data.preferences
        .filter((p) => p.name === elsewhere || p.name.startsWith(`${elsewhere}.`))
        .filter((p) => /\.(arm64|s390x)$/.test(p.name) || p.name === elsewhere);
      return fail(
        `--os: \`${osWord}\` has no preference for ${arch} in ${got.catalogs.from}`,
        `its preferences: ${variants.map((p) => `${p.name} (${p.architecture || 'amd64'})`).join(', ')}`,
      );
    }
    const words = [...new Set(data.preferences.filter((p) => !p.deprecated).map((p) => p.name))];
    const meant = closest(osWord.toLowerCase().replace(/\s+/g, '.'), words);
    return fail(
      `--os: \`${osWord}\` names no preference of ${got.catalogs.from}`,
      `${meant ? `did you mean ${meant}? ` : ''}preferences: ${words.slice(0, 12).join(', ')}${words.length > 12 ? ', ...' : ''}`,
    );
  }
  const cpu = ask.cpu !== undefined ? parseRange(ask.cpu, 'count') : undefined;
  const memory = ask.memory !== undefined ? parseRange(ask.memory, 'bytes') : undefined;
  if (cpu && 'error' in cpu) return fail(`--cpu: ${cpu.error}`);
  if (memory && 'error' in memory) return fail(`--memory: ${memory.error}`);
  const within = (v: number, r: readonly [number | undefined, number | undefined] | undefined): boolean =>
    r === undefined || ((r[0] === undefined || v >= r[0]) && (r[1] === undefined || v <= r[1]));
  const askedSpecial =
    ask.dedicated === true ||
    ask.hugepages !== undefined ||
    ask.gpu !== undefined ||
    [...classes, ...(ask.classes ?? [])].some((c) => c !== 'general.purpose') ||
    meaning.families.length > 0 ||
    (ask.families ?? []).length > 0;
  const fitsArch = (it: SiteInstancetype): boolean =>
    preference.architecture === '' || it.architectures.length === 0 || it.architectures.includes(preference.architecture);
  const inIntent = (it: SiteInstancetype): boolean =>
    (classes.length === 0 && meaning.families.length === 0) ||
    classes.includes(it.class) ||
    (classes.includes('gpu') && it.gpus.length > 0) ||
    meaning.families.some((f) => f === it.family || f === it.family.replace(/\d+$/, ''));
  // What `select` lists for the same flags (one filter: src/site/filter.ts), then what deciding adds.
  const listed = selectInstancetypes(data, {
    ...(ask.dedicated === true ? { dedicated: true } : {}),
    ...(ask.hugepages !== undefined ? { hugepages: ask.hugepages } : {}),
    ...(ask.gpu !== undefined ? { gpu: ask.gpu } : {}),
    ...(ask.families !== undefined ? { families: ask.families } : {}),
    ...(ask.classes !== undefined ? { classes: ask.classes } : {}),
    ...(ask.text !== undefined ? { text: ask.text } : {}),
    ...(ask.deprecated === true ? { deprecated: true } : {}),
  });
  const usable = listed.filter(
    (it) => (ask.scope === undefined || it.scopes.includes(ask.scope)) && fitsArch(it) && inIntent(it) && (askedSpecial || specialised(it) === 0),
  );
  const candidates = usable
    .filter((it) => within(it.cpu, cpu) && within(it.memoryBytes, memory) && (ask.size === undefined || it.size === ask.size))
    .sort(order);
  const verdict = (it: SiteInstancetype): { admitted: boolean; reason?: string } => {
    const o = pairOf(data, preference, it);
    return o === undefined ? { admitted: false, reason: `not for ${preference.architecture || 'this architecture'}` } : o;
  };
  /** What the cluster says of a VM of the pair: the namespace's quotas, then the nodes (with `--nodes`). */
  // The launcher pod is rendered once, for the quota and the nodes alike.
  const placement = (vm: JsonObject): { reason?: string; fits?: string[] } => {
    if (!input.quota && !input.cluster) return {};
    const started = previewVm({ ...vm, metadata: { name: 'my-vm', namespace: 'default' } }, input.store, input.config, 'default');
    if ('error' in started) return input.cluster ? { reason: `its launcher pod fits on no node: KubeVirt would not start it: ${started.error}` } : {};
    const pod = { ...started.pod, metadata: { ...(started.pod['metadata'] as JsonObject), name: 'virt-launcher-my-vm', namespace: 'default' } };
    if (input.quota) {
      // The namespace's ResourceQuotas: the API server refuses a launcher pod they leave no room for.
      const room = quotaRoom(pod, input.quota);
      if (room.more === 0) return { reason: `the namespace's quota refuses its launcher pod: ${room.message ?? 'exceeded quota'}` };
    }
    if (!input.cluster) return {};
    const fit = fitPod(pod, input.cluster.nodes, input.cluster.pods);
    const fits = fit.nodes.filter((n) => n.fits).map((n) => n.name);
    return fits.length === 0 ? { reason: `its launcher pod fits on no node: ${fit.message ?? 'no node'}` } : { fits };
  };
  const passedOver: PassedOver[] = [];
  const understood = { intent: intentWord, classes, preference: preference.name };
  for (const it of candidates) {
    const v = verdict(it);
    if (!v.admitted) {
      passedOver.push({ instancetype: it.name, reason: v.reason ?? 'KubeVirt refuses the pair' });
      continue;
    }
    const answer = chosen(it, ask.scope);
    const vm = vmSnippet(answer, preference, ask.scope);
    const placed = placement(vm);
    if (placed.reason !== undefined) {
      passedOver.push({ instancetype: it.name, reason: placed.reason });
      continue;
    }
    const fits = placed.fits;
    const why = [
      `${it.name}: ${it.cpu} vCPU${it.cpu === 1 ? '' : 's'}, ${it.memory}, ${it.class || 'no class'}`,
      `the ${specialised(it) === 0 ? 'least specialised, ' : ''}smallest of ${candidates.length} candidate${candidates.length === 1 ? '' : 's'} that KubeVirt admits with ${preference.name}`,
      ...(preference.requiredCpu > 1 || preference.requiredMemory !== ''
        ? [
            `${preference.name} requires ${preference.requiredCpu} vCPU${preference.requiredCpu === 1 ? '' : 's'}${preference.requiredMemory ? ` and ${preference.requiredMemory}` : ''}`,
          ]
        : []),
    ];
    if (fits)
      why.push(
        `its launcher pod fits on ${fits.length} of ${input.cluster!.nodes.length} node${input.cluster!.nodes.length === 1 ? '' : 's'} (${fits.slice(0, 3).join(', ')}${fits.length > 3 ? ', ...' : ''})`,
      );
    return {
      understood,
      answer: { instancetype: answer, preference: preference.name, why, vm, ...(fits ? { fits } : {}) },
      passedOver,
      diagnostics: [...got.catalogs.diagnostics],
      notes: fromNote(got.catalogs.from),
    };
  }
  // Nothing to answer: say why, and what is nearest that KubeVirt admits.
  // The nearest admitted pairs of the intent; when it has none, of any class.
  const admittedOf = (xs: readonly SiteInstancetype[]): SiteInstancetype[] =>
    xs.filter((it) => verdict(it).admitted && placement(vmSnippet(chosen(it, ask.scope), preference, ask.scope)).reason === undefined);
  const within_ = admittedOf(usable);
  const pool =
    within_.length > 0 ? within_ : admittedOf(data.instancetypes.filter((it) => !it.deprecated && fitsArch(it) && (askedSpecial || specialised(it) === 0)));
  const alternatives = pool
    .sort((a, b) => Math.abs(a.cpu - (cpu?.[0] ?? a.cpu)) - Math.abs(b.cpu - (cpu?.[0] ?? b.cpu)) || order(a, b))
    .slice(0, 3)
    .map((it) => ({ instancetype: chosen(it, ask.scope), preference: preference.name }));
  const first = passedOver[0];
  const message =
    candidates.length === 0
      ? `no instance type of ${got.catalogs.from} meets the ask${ask.size ? ` (size ${ask.size})` : ''}${cpu ? ` (${ask.cpu} vCPUs)` : ''}${memory ? ` (memory ${ask.memory})` : ''} for ${preference.name}`
      : /^(the namespace's quota|its launcher pod fits on no node)/.test(first!.reason)
        ? `none of the ${candidates.length} instance type${candidates.length === 1 ? '' : 's'} that meet the ask runs with ${preference.name} on this cluster: ${first!.instancetype}: ${first!.reason}`
        : `KubeVirt admits none of the ${candidates.length} instance type${candidates.length === 1 ? '' : 's'} that meet the ask with ${preference.name}: ${first!.instancetype}: ${first!.reason}`;
  const d: Diagnostic = diag('IT1011', message, undefined, {
    hint:
      alternatives.length > 0
        ? `nearest that KubeVirt admits: ${alternatives.map((a) => `${a.instancetype.name} (${a.instancetype.cpu} vCPU${a.instancetype.cpu === 1 ? '' : 's'}, ${a.instancetype.memory})`).join(', ')}`
        : 'nothing of the catalog is admitted with it',
  });
  return { understood, refusal: { message, alternatives }, passedOver, diagnostics: [...got.catalogs.diagnostics, d], notes: fromNote(got.catalogs.from) };
}

/** `select -o json`: the instance types listed, or (with --os, --intent or --size) the decision. */
export type SelectJson = SelectListJson | ChooseJson;

/** `select --os/--intent/--size -o json` (and `itgen mcp`'s select tool): the decision, or the refusal and its alternatives. */
export interface ChooseJson {
  readonly understood?: ChooseReport['understood'];
  readonly answer?: Omit<NonNullable<ChooseReport['answer']>, 'vm'> & { readonly vm: KubeObjectJson };
  readonly passedOver: readonly PassedOver[];
  readonly refusal?: ChooseReport['refusal'];
}

/** The decision as JSON (what `itgen mcp`'s select tool returns as structured content). */
export function chooseJson(r: ChooseReport): ChooseJson {
  return {
    ...(r.understood ? { understood: r.understood } : {}),
    ...(r.answer ? { answer: { ...r.answer, vm: kubeObject(r.answer.vm) } } : {}),
    passedOver: r.passedOver,
    ...(r.refusal ? { refusal: r.refusal } : {}),
  };
}

/** The decision for a person: the answer and why, what was passed over, the VM to apply. */
export function chooseText(r: ChooseReport): string | undefined {
  if (!r.answer) return undefined;
  const lines = [`${r.answer.instancetype.name} with ${r.answer.preference}`, ...r.answer.why.map((w) => `  ${w}`)];
  if (r.passedOver.length > 0) lines.push('not chosen:', ...r.passedOver.slice(0, 5).map((p) => `  ${p.instancetype}: ${p.reason}`));
  return `${lines.join('\n')}\n---\n${mappingToYaml(r.answer.vm)}`;
}

/** `-o json`: the decision, indented. */
export function chooseJsonText(r: ChooseReport): string {
  return JSON.stringify(chooseJson(r), null, 2);
}
