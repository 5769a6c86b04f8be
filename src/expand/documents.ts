/**
 * Expanding the VirtualMachines of manifest documents, with every KubeVirt error placed at the VM
 * field it is about (file:line:col). Documents that are instancetype objects, PVCs, DataVolumes or
 * DataSources join the object store, so a VM file can carry what it references.
 */
import { isPlainObject, type JsonObject, obj } from '../json';
import { diag, type Diagnostic } from '../diagnostics';
import { locate, type PathSegment, type SourceDoc } from '../load/source';

import { clusterOf, type ExpandOptions } from './expand';
import { type Inference } from './mutate';
import { fieldPath } from './unknown-fields';
import { judgeVm, type JudgeCause, type Verdict } from './judge';
import { type References } from './model';
import { ARCH_LABEL as ARCH_LABEL_OF_OBJECT, mergeStores, namedRevision, objectStore, type ObjectStore, type ReferenceError } from './references';
import { ARCH_LABEL, architectureSelectorConflict, vmApiVersionProblem } from '../kubevirt/placement';
import { readKubevirtCr, type ClusterDefaults } from '../kubevirt/config';
import { biggerSizeHint, referenceHint } from './hints';

const STAGE_WORDS: Readonly<Record<string, string>> = {
  mutate: 'the mutating webhook',
  startVMI: "the VM controller's start",
  vmiAdmit: 'the VirtualMachineInstance webhook',
  render: "the launcher pod's render",
};

export interface ExpandOutcome {
  readonly file: string;
  readonly name: string;
  /** The expanded VM; absent when expansion or admission failed. */
  readonly vm?: JsonObject;
  /** With `as: vmi|pod`: the VMI it starts as, its launcher pod, the pod's memory overhead, and what was assumed. */
  readonly vmi?: JsonObject;
  readonly pod?: JsonObject;
  readonly memoryOverhead?: string;
  readonly notes?: readonly string[];
  /** What was applied to it: the objects (kind and name, or the ControllerRevision), and inferences from volumes. */
  readonly applied?: { readonly instancetype?: string; readonly preference?: string; readonly inferred: readonly Inference[] };
  readonly diagnostics: Diagnostic[];
}

/** An object of a manifest file, with the document and path where it stands. */
export interface FoundObject {
  readonly src: SourceDoc;
  readonly path: readonly PathSegment[];
  readonly value: JsonObject;
}

/** Every object of the documents, `List` items included, with where it stands. */
export function manifestObjects(docs: readonly SourceDoc[]): FoundObject[] {
  const out: FoundObject[] = [];
  for (const src of docs) {
    if (!isPlainObject(src.value as never)) continue;
    const value = src.value as JsonObject;
    if (value['kind'] === 'List' && Array.isArray(value['items'])) {
      value['items'].forEach((item, i) => {
        if (isPlainObject(item)) out.push({ src, path: ['items', i], value: item });
      });
    } else out.push({ src, path: [], value });
  }
  return out;
}

/** The document path of a field KubeVirt names (`spec.template.spec.domain.cpu.dedicatedCPUPlacement`). */
export function documentPath(field: string): PathSegment[] {
  if (field.startsWith('annotations.')) return ['spec', 'template', 'metadata', 'annotations', field.slice('annotations.'.length)];
  // The spread check names the instancetype's field; the VM's matcher is where to look.
  if (field.startsWith('instancetype.')) return ['spec', 'instancetype', 'name'];
  // Go spells this one field differently in conflict paths and in the VM's JSON.
  // `disks[2].name`: the list's key, then the item's index.
  return field
    .replace('domain.cpu.dedicatedCPUPlacement', 'domain.cpu.dedicatedCpuPlacement')
    .split('.')
    .flatMap((part): PathSegment[] => {
      const m = /^([^[\]]*)((?:\[\d+\])+)$/.exec(part);
      if (!m) return [part];
      const indices = [...m[2]!.matchAll(/\[(\d+)\]/g)].map((x) => Number(x[1]));
      return m[1] === '' ? indices : [m[1]!, ...indices];
    });
}

/**
 * Expands (and by default admits) every VirtualMachine of `docs` against `store` plus the objects
 * the documents themselves hold. Diagnostics: IT8001 a reference that cannot be resolved, IT8002
 * conflicts with the instance type, IT8003 admission refused, IT8004 nothing to expand.
 *
 * Over 80 lines: one pass over the documents that keeps each outcome with its diagnostics at their places; the steps (mutate, expand, admit, start) are calls, the length is the placing.
 */
export function expandDocuments(
  docs: readonly SourceDoc[],
  store: ObjectStore,
  options: ExpandOptions & { readonly admission: boolean },
): { outcomes: ExpandOutcome[]; diagnostics: Diagnostic[] } {
  const found = manifestObjects(docs);
  const vms = found.filter((f) => f.value['kind'] === 'VirtualMachine');
  const given = objectStore(found.filter((f) => f.value['kind'] !== 'VirtualMachine').map((f) => f.value));
  // The objects of the input files first, then the store's; Namespaces, ResourceQuotas, Nodes and
  // StorageClasses of either are what the start reads of the cluster.
  const all = mergeStores(given, store);
  const diagnostics: Diagnostic[] = [];
  if (vms.length === 0) {
    diagnostics.push(
      diag('IT8004', 'no VirtualMachine found in the input', docs[0] ? { file: docs[0].file, line: 1, col: 1 } : undefined, {
        hint: 'pass VirtualMachine manifests (kind: VirtualMachine, apiVersion: kubevirt.io/v1), as files, directories or - for standard input',
      }),
    );
  }
  const outcomes = vms.map((f): ExpandOutcome => {
    const name = String(obj(f.value['metadata'])?.['name'] ?? '(unnamed)');
    const file = f.src.file;
    const namespace = options.namespace ?? 'default';
    // The API server maps kind and apiVersion to a resource first: a version KubeVirt does not serve
    // never reaches its schema or webhooks (kubectl: "no matches for kind ... in version ...").
    // ValidateObjectMeta: the API server refuses an object with neither name nor generateName.
    const meta = obj(f.value['metadata']);
    // What the API server refuses before KubeVirt sees the VM (IT8006), at `path` of it.
    const refused = (message: string, path: readonly PathSegment[], hint: string): ExpandOutcome => ({
      file,
      name,
      diagnostics: [diag('IT8006', `VirtualMachine \`${name}\`: ${message}`, locate(f.src, [...f.path, ...path]), { hint })],
    });
    if ((typeof meta?.['name'] !== 'string' || meta['name'] === '') && (typeof meta?.['generateName'] !== 'string' || meta['generateName'] === ''))
      return refused(
        'metadata.name: Required value: name or generateName is required',
        ['metadata'],
        'give the VirtualMachine a name: the API server refuses it before KubeVirt sees it',
      );
    const version = vmApiVersionProblem(f.value['apiVersion']);
    if (version?.severity === 'error')
      return refused(
        version.message,
        [f.value['apiVersion'] === undefined ? 'kind' : 'apiVersion'],
        'KubeVirt serves VirtualMachine as apiVersion kubevirt.io/v1 (and the deprecated kubevirt.io/v1alpha3); the API server refuses any other',
      );
    const versionWarning = version
      ? [
          diag('IT8006', `VirtualMachine \`${name}\`: ${version.message}`, locate(f.src, [...f.path, 'apiVersion']), {
            severity: 'warning',
            hint: 'write apiVersion: kubevirt.io/v1',
          }),
        ]
      : [];
    const outcome = judgeOne(f, file, name, namespace);
    const notes = [...versionWarning, ...(options.revisionsInCluster === 'said' ? revisionsNotGiven(f, name, namespace) : [])];
    return notes.length > 0 ? { ...outcome, diagnostics: [...notes, ...outcome.diagnostics] } : outcome;
  });
  return { outcomes, diagnostics };

  /**
   * A stored VM (`kubectl get vm -o yaml`) runs on the ControllerRevisions its matchers name; one the
   * files do not hold is taken to be in the cluster, and the VM is judged with the object the matcher
   * names, as at a start with the revision cleared: said, with how to judge it with the revision.
   */
  function revisionsNotGiven(f: FoundObject, name: string, requestNamespace: string): Diagnostic[] {
    return (['instancetype', 'preference'] as const).flatMap((which) => {
      // The lookup the judge's resolver makes (references.ts): a revision the store lacks is the cluster's.
      const named = namedRevision(all, f.value, which, requestNamespace);
      if (!named || named.revision) return [];
      const { name: revision, namespace } = named;
      const matcher = obj(obj(f.value['spec'])?.[which]);
      return [
        diag(
          'IT8015',
          `VirtualMachine \`${name}\` runs on ControllerRevision \`${revision}\`, which the files do not hold: judged with the ${which === 'instancetype' ? 'instance type' : 'preference'} \`${String(matcher?.['name'] ?? '')}\` as it is now, as at a start with the revision cleared`,
          locate(f.src, [...f.path, 'spec', which, 'revisionName']),
          {
            severity: 'warning',
            hint: `to judge it with what it runs on, export the revision and pass it with --with: kubectl get controllerrevisions -n ${namespace} ${revision} -o yaml`,
          },
        ),
      ];
    });
  }

  /** One VM's verdict (judge.ts), each cause placed at the VM field it names, in the words of its stage. */
  function judgeOne(f: FoundObject, file: string, name: string, namespace: string): ExpandOutcome {
    const at = (field: string): ReturnType<typeof locate> => locate(f.src, [...f.path, ...documentPath(field)]);
    const v = judgeVm(f.value, all, {
      config: options.kubevirt ?? clusterOf(options),
      namespace,
      mutate: options.mutate ?? 'applied',
      revisionsInCluster: options.revisionsInCluster !== undefined && options.revisionsInCluster !== false,
      admission: options.admission,
    });
    const release = options.kubevirt?.release ?? options.cluster?.release;
    const { instancetype, preference } = v.references;
    const applied = {
      ...(instancetype ? { instancetype: `${instancetype.kind} ${instancetype.name}` } : {}),
      ...(preference ? { preference: `${preference.kind} ${preference.name}` } : {}),
      inferred: v.inferred,
    };
    const outcome = (diagnostics: Diagnostic[]): ExpandOutcome => ({ file, name, diagnostics });
    switch (v.stage) {
      case 'schema':
        return outcome(schemaDiagnostics(v.causes, f, name, release));
      case 'mutate':
        return outcome(
          v.causes.map((c) =>
            c.reason === 'infer'
              ? diag('IT8001', `VirtualMachine \`${name}\`: ${c.message}`, at(c.field), {
                  hint: 'pass the PersistentVolumeClaim, DataVolume, DataSource or VolumeSnapshot with --with FILE',
                })
              : diag('IT8005', `VirtualMachine \`${name}\`: ${c.message}`, at(c.field)),
          ),
        );
      case 'admit':
        // A lookup that failed is the cause (the VM would never start: FailedFindInstancetype or
        // FailedFindPreference); the webhook's refusal that ignored it comes second.
        return outcome([
          ...referenceDiagnostics(v.referenceErrors, name, at, true),
          ...v.causes.map((c) =>
            c.reason === 'conflict'
              ? diag('IT8002', `VirtualMachine \`${name}\`: ${c.message}`, at(c.field), {
                  hint: 'remove the field from the VM: the instance type provides it',
                })
              : diag(
                  'IT8003',
                  `VirtualMachine \`${name}\` would be refused: ${c.message}`,
                  at(vmField(c.field, false).split(', ')[0]!),
                  c.type === 'InternalError'
                    ? { hint: PANIC_HINT }
                    : v.referenceErrors.some((e) => e.notFound)
                      ? { hint: 'the webhook judged the VM without the object it could not find (above): name one that exists first' }
                      : biggerSizeHint(c, v.references, all),
                ),
          ),
        ]);
      case 'lookup':
        return outcome(referenceDiagnostics(v.referenceErrors, name, at));
      case 'expand':
      case 'startVMI':
      case 'vmiAdmit':
      case 'render':
        return outcome(laterDiagnostics(v, name, at));
      case 'runs': {
        const placed = placementDiagnostics(v.vm!, v.references, name, at);
        return {
          file,
          name,
          vm: v.vm!,
          ...(v.vmi ? { vmi: v.vmi, pod: v.pod!, memoryOverhead: v.memoryOverhead!, notes: v.notes } : {}),
          applied,
          diagnostics: placed,
        };
      }
    }
  }

  function referenceDiagnostics(
    errors: readonly ReferenceError[],
    name: string,
    at: (field: string) => ReturnType<typeof locate>,
    refused = false,
  ): Diagnostic[] {
    // KubeVirt stores such a VM (its webhooks ignore the failed lookup), and its VM controller then
    // never starts it (pkg/instancetype/controller/vm: FailedFindInstancetype, FailedFindPreference);
    // unless the webhook, judging without what it could not find, refuses the VM (reported after).
    const never = (e: ReferenceError): string =>
      !e.notFound
        ? ''
        : refused
          ? 'without it KubeVirt judges the VM on its own, and refuses it (below); '
          : `KubeVirt would store the VM and never start it (${e.field.startsWith('spec.preference') ? 'FailedFindPreference' : 'FailedFindInstancetype'}); `;
    return errors.map((e) => diag('IT8001', `VirtualMachine \`${name}\`: ${e.message}`, at(e.field), { hint: `${never(e)}${referenceHint(e, all)}` }));
  }
}

/** Expand-spec's refusal (a conflict, or a panic), or the start's (the VM is stored and never starts), at each field. */
function laterDiagnostics(v: Verdict, name: string, at: (field: string) => ReturnType<typeof locate>): Diagnostic[] {
  const { stage } = v;
  if (stage === 'expand')
    return v.causes[0]?.reason === 'panic'
      ? [diag('IT8003', `VirtualMachine \`${name}\` would be refused: ${v.causes[0].message}`, at(v.causes[0].field), { hint: PANIC_HINT })]
      : // Expand-spec names every conflicting field in one error.
        v.causes.map((c) =>
          diag('IT8002', `VirtualMachine \`${name}\`: ${c.message}`, at(c.field), { hint: 'remove the field from the VM: the instance type provides it' }),
        );
  return v.causes.map((c) =>
    diag('IT8008', `VirtualMachine \`${name}\` would be stored but not start: ${STAGE_WORDS[stage]}: ${c.message}`, at(vmField(c.field, true)), {
      hint:
        stage === 'render'
          ? "virt-controller's VMI condition says `failed to render launch manifest: ...`"
          : 'KubeVirt keeps the VM and reports the failure on it',
    }),
  );
}

const PANIC_HINT = 'virt-api answers such a VM with an internal error; change the VM as the message says';

/**
 * The API server's refusals of a VM, at each field: a wrong type or a missing required field in
 * its words, an unknown field as strict decoding words it, with the field probably meant or the
 * release that has it.
 */
function schemaDiagnostics(causes: readonly JudgeCause[], f: FoundObject, name: string, release: string | undefined): Diagnostic[] {
  return causes.map(({ unknown: u }) =>
    u!.invalid !== undefined
      ? diag('IT8005', `VirtualMachine \`${name}\`: ${u!.invalid}`, locate(f.src, [...f.path, ...u!.path]), {
          hint: "KubeVirt's schema for the VirtualMachine type says so; the API server refuses the VM",
        })
      : diag('IT8005', `VirtualMachine \`${name}\`: strict decoding error: unknown field "${fieldPath(u!.path)}"`, locate(f.src, [...f.path, ...u!.path]), {
          hint:
            u!.since !== undefined
              ? `KubeVirt ${release ?? ''}'s types lack it (it arrived in ${u!.since}); the API server refuses it, and a VM without it is what that release runs`
              : `${u!.meant !== undefined ? `did you mean \`${u!.meant}\`? ` : ''}Go's lenient decoding would drop it in silence (or match it ignoring case); the API server refuses it`,
        }),
  );
}

/**
 * Where a value KubeVirt names sits in the VM: the webhooks name the affinity's rules from the spec
 * itself (`spec.template.spec.nodeAffinity...`) and the ACPI tables as `<spec>.acpi`; a VMI's
 * causes (`ofVmi`) name its fields `spec...`, the VM webhook's its own (`spec.running`).
 */
function vmField(f: string, ofVmi: boolean): string {
  return (
    !ofVmi || f.startsWith('spec.template') || f.startsWith('spec.instancetype') || f.startsWith('spec.preference')
      ? f
      : f.replace(/^spec\b/, 'spec.template.spec')
  )
    .replace(/^spec\.template\.spec\.(nodeAffinity|podAffinity|podAntiAffinity)\b/, 'spec.template.spec.affinity.$1')
    .replace(/^spec\.template\.spec\.acpi\b/, 'spec.template.spec.domain.firmware.acpi');
}

/**
 * A VM KubeVirt admits and expands but whose launcher pod is placed on nodes of another
 * architecture than its guest's (kubevirt/placement.ts): an error, since it can never run as meant.
 */
function placementDiagnostics(vm: JsonObject, refs: References, name: string, at: (field: string) => ReturnType<typeof locate>): Diagnostic[] {
  const spec = obj(obj(obj(vm['spec'])?.['template'])?.['spec']);
  // An instance type meant for one architecture (its label) paired with a guest of another.
  const meant = refs.instancetype?.architecture;
  const guest = typeof spec?.['architecture'] === 'string' ? spec['architecture'] : undefined;
  if (meant !== undefined && guest !== undefined && meant !== guest) {
    const pref =
      refs.preference && typeof refs.preference.spec['preferredArchitecture'] === 'string' ? ` (from ${refs.preference.kind} \`${refs.preference.name}\`)` : '';
    return [
      diag(
        'IT8007',
        `VirtualMachine \`${name}\` runs an ${guest} guest${pref} on ${refs.instancetype!.kind} \`${refs.instancetype!.name}\`, which is meant for ${meant} (its ${ARCH_LABEL_OF_OBJECT} label)`,
        at('instancetype.name'),
        { severity: 'warning', hint: `pair it with an instance type meant for ${guest}, or a preference for ${meant}` },
      ),
    ];
  }
  const conflict = spec ? architectureSelectorConflict(spec) : undefined;
  if (!conflict) return [];
  const from = (which: 'instancetype' | 'preference', field: (s: JsonObject) => unknown): string | undefined => {
    const o = refs[which];
    return o && field(o.spec) !== undefined ? `${o.kind} \`${o.name}\`` : undefined;
  };
  const archFrom = from('preference', (s) => s['preferredArchitecture']);
  const nodesFrom = from('instancetype', (s) => obj(s['nodeSelector'])?.[ARCH_LABEL]);
  return [
    diag(
      'IT8007',
      `VirtualMachine \`${name}\` runs an ${conflict.architecture} guest${archFrom ? ` (from ${archFrom})` : ''} but its node selector places it on ${conflict.nodes} nodes${nodesFrom ? ` (from ${nodesFrom})` : ''}: KubeVirt lets the VM's \`${ARCH_LABEL}\` selector replace its architecture's, so the launcher pod would land on a node that cannot run the guest`,
      at(nodesFrom ? 'instancetype.name' : 'spec.template.spec.nodeSelector'),
      { hint: `pair an ${conflict.architecture} instance type with an ${conflict.architecture} preference (or ${conflict.nodes} with ${conflict.nodes})` },
    ),
  ];
}

/**
 * The cluster configuration of the KubeVirt CR in `docs` (`kubectl get kubevirt -n kubevirt kubevirt
 * -o yaml`, or a List holding it): IT8009 when there is none or several, and a warning with
 * KubeVirt's words when KubeVirt would not take its configuration (it keeps its defaults then).
 */
export function kubevirtFromDocuments(docs: readonly SourceDoc[], file: string): { config?: ClusterDefaults; diagnostics: Diagnostic[] } {
  const found = manifestObjects(docs).filter((f) => f.value['kind'] === 'KubeVirt');
  if (found.length !== 1) {
    const at = found[1] ? locate(found[1].src, [...found[1].path, 'kind']) : docs[0] ? { file: docs[0].file, line: 1, col: 1 } : undefined;
    return {
      diagnostics: [
        diag(
          'IT8009',
          found.length === 0 ? `\`${file}\` holds no KubeVirt object` : `\`${file}\` holds ${found.length} KubeVirt objects; KubeVirt reads one`,
          at,
          {
            hint: 'kubectl get kubevirt -n kubevirt kubevirt -o yaml > kubevirt.yaml',
          },
        ),
      ],
    };
  }
  const cr = found[0]!;
  const { config, findings } = readKubevirtCr(cr.value);
  return {
    ...(config ? { config } : {}),
    diagnostics: findings.map((f) =>
      diag('IT8009', f.message, locate(cr.src, [...cr.path, 'spec', ...f.path]), { severity: f.severity, ...(f.hint ? { hint: f.hint } : {}) }),
    ),
  };
}
