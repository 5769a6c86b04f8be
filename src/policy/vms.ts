/**
 * What a project's admission policies do to the VMs of a repository (`validate --vms DIR`): each
 * VirtualMachine, as a person creates it, through `judgePolicies` of every generator whose
 * `policy:` writes policies. The namespace's profile label is read from the Namespace objects among
 * the VM files. What the VM diagnostics already report (IT8001: the name does not resolve; IT8302:
 * a deprecated object) is not said twice: their hint says what the policy does.
 */
import { diag, type Diagnostic, type SourceRange } from '../diagnostics';
import { manifestObjects } from '../expand/documents';
import { withoutNulls } from '../expand/judge';
import { obj, type JsonObject } from '../json';
import { locate, type SourceDoc } from '../load/source';
import type { PolicyCatalog, PolicyOptions } from './index';
import { judgePolicies, type PolicyVerdict } from './judge';

export interface ProjectPolicy {
  readonly generator: string;
  readonly catalog: PolicyCatalog;
  readonly options: PolicyOptions;
}

/**
 * `reported` with what the policies add: IT8010 for each denial of a VM of `docs`; a name that does not resolve (IT8001) keeps its one report, whose hint then says that the
 * cluster refuses the VM instead of storing it and never starting it.
 */
export function withPolicyVerdicts(docs: readonly SourceDoc[], policies: readonly ProjectPolicy[], reported: readonly Diagnostic[]): Diagnostic[] {
  if (policies.length === 0) return [...reported];
  const replaced = new Map<Diagnostic, Diagnostic>();
  const found = manifestObjects(docs);
  const labels = new Map<string, Record<string, string>>();
  for (const f of found)
    if (f.value['kind'] === 'Namespace') {
      const meta = obj(f.value['metadata']);
      if (typeof meta?.['name'] === 'string') labels.set(meta['name'], (obj(meta['labels']) ?? {}) as Record<string, string>);
    }
  const out: Diagnostic[] = [];
  for (const f of found) {
    if (f.value['kind'] !== 'VirtualMachine') continue;
    const meta = obj(f.value['metadata']) ?? {};
    const name = String(meta['name'] ?? '(unnamed)');
    const namespace = typeof meta['namespace'] === 'string' && meta['namespace'] !== '' ? meta['namespace'] : 'default';
    // The VM diagnostics' findings at a matcher's name: the same place, the same cause.
    const nameAt = (which: 'instancetype' | 'preference'): SourceRange | undefined =>
      obj(obj(f.value['spec'])?.[which]) ? locate(f.src, [...f.path, 'spec', which, 'name']) : undefined;
    const reportedAt = (code: Diagnostic['code'], at: SourceRange | undefined): Diagnostic | undefined =>
      at === undefined
        ? undefined
        : reported.find(
            (d) => d.code === code && !replaced.has(d) && d.location?.file === at.file && d.location?.line === at.line && d.location?.col === at.col,
          );
    for (const p of policies) {
      // A name only otherNames knows: the policy admits it, but nothing here says what it is.
      for (const which of ['instancetype', 'preference'] as const) {
        const n = obj(obj(f.value['spec'])?.[which])?.['name'];
        const unresolved = reportedAt('IT8001', nameAt(which));
        if (typeof n === 'string' && unresolved && (p.catalog.otherNames ?? []).some((o) => (o.endsWith('*') ? n.startsWith(o.slice(0, -1)) : o === n)))
          replaced.set(unresolved, {
            ...unresolved,
            hint: `the admission policy ${p.options.prefix}.catalog admits it (otherNames: something else deploys it); give that object with --with to judge the VM against it`,
          });
      }
      const j = judgePolicies(p.catalog, p.options, {
        operation: 'CREATE',
        username: 'a person',
        namespace,
        namespaceLabels: labels.get(namespace) ?? {},
        // The object as the API server hands it to admission: the nulls its schema prunes are gone.
        object: withoutNulls(f.value) as JsonObject,
      });
      const where = (v: PolicyVerdict): SourceRange => nameAt(v.which) ?? locate(f.src, [...f.path, 'spec']);
      for (const v of j.denied) {
        const unresolved = v.rule === 'catalog' ? reportedAt('IT8001', nameAt(v.which)) : undefined;
        if (unresolved) {
          replaced.set(unresolved, { ...unresolved, hint: `the cluster refuses it: the admission policy ${v.policy} says "${v.message}"` });
          continue;
        }
        out.push(
          diag('IT8010', `VirtualMachine \`${name}\`: the cluster would refuse it: ${v.policy} (${p.generator}): ${v.message}`, where(v), {
            hint:
              v.rule === 'profile'
                ? `namespace \`${namespace}\` is labelled for a profile that does not allow it`
                : 'KubeVirt never sees it: kube-apiserver refuses the request',
          }),
        );
      }
      // A deprecated object: the VM diagnostics' own warning (IT8302) says what kubectl will print.
      for (const v of j.warnings) {
        const deprecated = reportedAt('IT8302', nameAt(v.which));
        if (deprecated)
          replaced.set(deprecated, {
            ...deprecated,
            hint: `${deprecated.hint ?? ''}${deprecated.hint ? '; ' : ''}kubectl warns on apply (${v.policy}): "${v.message}"`,
          });
      }
    }
  }
  return [...reported.map((d) => replaced.get(d) ?? d), ...out];
}
