import { diag, didYouMean } from '../diagnostics';
import { mappingToYaml } from '../emit/serialize';
import { factsComment, launcherFacts } from '../expand/facts';
import { manifestObjects } from '../expand/documents';
import type { JsonObject } from '../json';
import { locate } from '../load/source';
import type { Project } from '../project';
import { explainObject } from '../render/explain';
import { KIND_ORDER, kindByName, type ManifestKind } from '../schema/kubevirt-api';
import { catalogsOrReport, fromNote, type Report } from './report';

export interface ExplainReport extends Report {
  /** Every object of the name: the cluster object and its namespaced twin are both what users deploy. */
  readonly objects: readonly { readonly kind: string; readonly name: string; readonly text: string }[];
}

/**
 * `itgen explain NAME`: each object of the name with where every field comes from (a catalog
 * object: the file, line and reason of each spec field; an object from files: the file and line it
 * was read at), and what a VM of it asks of a node.
 */
export function explain(project: Project, name: string, kind?: string): ExplainReport {
  const kinds = KIND_ORDER as readonly string[];
  const wanted: ManifestKind | undefined = kind === undefined ? undefined : kindByName(kind);
  if (kind !== undefined && wanted === undefined)
    return {
      objects: [],
      notes: [],
      diagnostics: [
        diag('IT1011', `unknown kind \`${kind}\``, undefined, {
          hint: didYouMean(kind, kinds) ?? `one of ${kinds.join(', ')} (or kubectl's vmcf, vmf, vmcp, vmp)`,
        }),
      ],
    };
  const got = catalogsOrReport(project);
  if (!got.ok) return { objects: [], ...got.report };
  const { sources, store } = got.catalogs;
  const config = project.config();
  const found = sources.flatMap((s) =>
    s.objects.filter((o) => o.manifest.metadata.name === name && (wanted === undefined || o.manifest.kind === wanted)).map((o) => ({ s, o })),
  );
  if (found.length === 0) {
    const suggestion = didYouMean(name, new Set(sources.flatMap((s) => s.objects.map((o) => o.manifest.metadata.name))));
    return {
      objects: [],
      notes: [],
      diagnostics: [
        ...got.catalogs.diagnostics,
        diag('IT1011', `no object named \`${name}\`${wanted !== undefined ? ` of kind ${wanted}` : ''}`, undefined, suggestion ? { hint: suggestion } : {}),
      ],
    };
  }
  const read = project.withDocuments().docs;
  const objects = found.map(({ s, o }) => {
    const manifest = o.manifest as unknown as JsonObject;
    const namespace = String((o.manifest.metadata as { namespace?: string }).namespace ?? 'default');
    const f = launcherFacts([manifest], store, s.kubevirt ?? config, namespace)[0];
    let text: string;
    if (s.origin === 'generator') text = explainObject(o);
    else {
      const at = manifestObjects(read).find(
        (m) => m.value === manifest || (m.value['kind'] === o.manifest.kind && (m.value['metadata'] as JsonObject | undefined)?.['name'] === name),
      );
      const where = at ? locate(at.src, at.path) : undefined;
      text = `# ${o.manifest.kind} ${name}: read from ${where ? `${where.file}:${where.line}:${where.col}` : 'the files given'}\n${mappingToYaml(manifest)}`;
    }
    return { kind: o.manifest.kind, name, text: `${text}${f ? `${factsComment(f)}\n` : ''}` };
  });
  return { objects, diagnostics: got.catalogs.diagnostics, notes: fromNote(got.catalogs.from) };
}
