/**
 * The catalog explorer and `itgen select` over compiled generators.
 */
import { closeSync, existsSync, lstatSync, openSync, readSync } from '../load/reads';
import path from 'node:path';
import { diag, type Diagnostic } from '../diagnostics';
import { writeFilesAtomic } from '../emit/write';
import type { ClusterDefaults } from '../kubevirt/config';
import type { CompileResult } from '../pipeline';
import { releaseNotes } from '../release/notes';
import { siteData, siteInputOfObjects, type SiteData } from './data';
import type { JsonObject } from '../json';
import { SITE_MARKER, sitePage } from './page';

export { pairsOf, siteData, siteInputOfObjects, type SiteData, type SiteInstancetype, type SitePairRow, type SitePreference } from './data';
export { instancetypesCsv, parseRange } from './select';
export { admittedCount, pairOf, selectInstancetypes, type SelectFilter, type SitePairOutcome } from './filter';
export { sitePage } from './page';

/** The explorer's data of compiled generators: each one's catalog, pod facts under `config`, matrix and release history. */
export function projectSiteData(results: readonly CompileResult[], config: ClusterDefaults, title?: string): SiteData {
  return siteData(
    results.flatMap((r) =>
      r.generator && r.catalog
        ? [
            {
              generator: r.generator.name,
              catalog: r.catalog,
              objects: r.objects,
              config: r.kubevirt ?? config,
              ...(r.lock ? { history: releaseNotes(r.lock.lock, r.objects) } : {}),
            },
          ]
        : [],
    ),
    title ?? (results.length === 1 && results[0]!.generator ? `Instance types of ${results[0]!.generator.name}` : 'Instance types'),
  );
}

/** The explorer's data of objects read from files (`--with`): instance types and preferences as the cluster has them. */
export function objectsSiteData(objects: readonly JsonObject[], config: ClusterDefaults, title = 'Instance types'): SiteData {
  return siteData([siteInputOfObjects(objects, 'files', config)], title);
}

/** The explorer page of compiled generators. */
export function projectSite(results: readonly CompileResult[], config: ClusterDefaults, title?: string): string {
  return sitePage(projectSiteData(results, config, title));
}

/**
 * Writes the explorer to `<outDir>/index.html`, atomically; an index.html there that itgen did not
 * write (no SITE_MARKER in its first 4 KiB) is left alone and said (IT1010).
 */
export function writeSite(outDir: string, shownDir: string, page: string): Diagnostic[] {
  const target = path.join(outDir, 'index.html');
  if (existsSync(target)) {
    let head = '';
    try {
      const st = lstatSync(target);
      if (st.isFile()) {
        const fd = openSync(target);
        try {
          const buf = Buffer.alloc(4096);
          head = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
        } finally {
          closeSync(fd);
        }
      }
    } catch {
      head = '';
    }
    if (!head.includes(`<meta name="generator" content="${SITE_MARKER}">`))
      return [
        diag('IT1010', `${shownDir}/index.html exists and itgen did not write it: it is left as it is`, undefined, {
          hint: 'choose another --out directory, or remove that file yourself',
        }),
      ];
  }
  try {
    writeFilesAtomic(outDir, [{ path: 'index.html', content: page }]);
  } catch (e) {
    return [diag('IT9002', `cannot write ${shownDir}/index.html: ${e instanceof Error ? e.message.replace(outDir, shownDir) : String(e)}`)];
  }
  return [];
}
