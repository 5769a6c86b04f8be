/**
 * The KRM function as a whole: a ResourceList whose functionConfig is a generator, in; the list with
 * this generator's objects, and the diagnostics as results, out.
 */
import { stringify } from 'yaml';
import { diag, hasErrors, strictify, type Diagnostic } from '../diagnostics';
import { parseSource } from '../load/source';
import { compileGenerator, generatorFromDocument, type CompileResult } from '../pipeline';
import { parseResourceList, resultItems, resultsOf, serializeResourceList, withoutOrchestratorAnnotations } from './krm';

/**
 * Positions in the function config refer to kpt's copy of it, not to the file on disk: name it as
 * such, so that no line of the real file is quoted under the wrong message.
 */
function onFunctionConfig(d: Diagnostic, file: string): Diagnostic {
  const rename = <T extends { file: string }>(l: T): T => (l.file === file ? { ...l, file: `functionConfig(${file})` } : l);
  return {
    ...d,
    ...(d.location ? { location: rename(d.location) } : {}),
    ...(d.related ? { related: d.related.map((r) => ({ ...r, location: rename(r.location) })) } : {}),
  };
}

/**
 * kpt and kustomize do not say where the function config came from, so it is taken to be
 * `generators/<metadata.name>.yaml` under `root`: `catalog` and `output` resolve exactly as they
 * do for that file. `output` is the ResourceList to print; an unusable input gives one IT7302.
 */
export function runFunction(root: string, input: string, options: { readonly strict: boolean }): { output: string; diagnostics: Diagnostic[] } {
  const fail = (message: string): { output: string; diagnostics: Diagnostic[] } => {
    const diagnostics = [diag('IT7302', message)];
    return { output: serializeResourceList([], resultsOf(diagnostics)), diagnostics };
  };
  const list = parseResourceList(input);
  if ('error' in list) return fail(list.error);
  const fc = withoutOrchestratorAnnotations(list.functionConfig);
  const meta = fc['metadata'];
  const name = meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? meta['name'] : undefined;
  if (typeof name !== 'string' || !/^[a-z0-9][a-z0-9._-]*$/.test(name))
    return fail('the functionConfig needs metadata.name: the generator name (its file name without .yaml)');
  const file = `generators/${name}.yaml`;
  const src = parseSource(file, Buffer.from(stringify(fc)));
  const loaded = src.docs[0] ? generatorFromDocument(root, file, src.docs[0]) : { diagnostics: src.diagnostics };
  const result: CompileResult | undefined = 'generator' in loaded && loaded.generator ? compileGenerator(root, loaded.generator) : undefined;
  const diagnostics = strictify(
    (result ? result.diagnostics : loaded.diagnostics).map((d) => onFunctionConfig(d, file)),
    options.strict,
  );
  const items = result && !hasErrors(diagnostics) ? resultItems(list, result.objects) : list.items;
  return { output: serializeResourceList(items, resultsOf(diagnostics)), diagnostics };
}
