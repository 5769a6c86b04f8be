/**
 * The catalog explorer: one self-contained `index.html` (data, style and script inline; no request
 * to any host, so it works from file://, GitHub Pages or GitLab Pages) under a strict
 * Content-Security-Policy that allows exactly its own script and style by hash. The script is
 * site/explorer.ts, bundled (tools/build-explorer.mjs) with the filter `itgen select` runs; it builds
 * every element with textContent. The data is JSON in a non-executable script element, with `<`
 * written as `\u003c` so no text in it can close the element.
 */
import { createHash } from 'node:crypto';
import type { SiteData } from './types';
import { EXPLORER_SCRIPT } from './explorer-script';

const CSS = `
:root{color-scheme:light dark;--fg:#1b1d21;--bg:#fff;--mute:#5f6670;--line:#d5d9de;--acc:#0b5cad;--hi:#fff3bf;--bad:#a4161a}
@media (prefers-color-scheme:dark){:root{--fg:#e8eaed;--bg:#16181b;--mute:#a3a9b1;--line:#3a3f45;--acc:#7cb8ff;--hi:#4a3f10;--bad:#ff8a8a}}
caption{text-align:left;padding:4px 8px}*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
header,main{padding:0 16px}h1{font-size:1.4rem;margin:12px 0 4px}h2{font-size:1.15rem;margin:20px 0 8px}
.mute{color:var(--mute)}a{color:var(--acc)}
fieldset{border:1px solid var(--line);border-radius:6px;margin:8px 0;padding:8px 10px;display:flex;flex-wrap:wrap;gap:8px 16px;align-items:end}
legend{font-weight:600}label{display:flex;flex-direction:column;font-size:.85rem;gap:2px}
label.check{flex-direction:row;align-items:center;gap:6px}
input,select,button{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:4px;padding:3px 6px}
input[type=number]{width:6.5em}input[type=search]{width:16em}
button{cursor:pointer}button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible{outline:2px solid var(--acc);outline-offset:1px}
.wrap{overflow-x:auto;border:1px solid var(--line);border-radius:6px}
table{border-collapse:collapse;width:100%}th,td{padding:4px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top;white-space:nowrap}
th button{border:0;padding:0;font-weight:600;background:none}td button{border:0;padding:0;background:none;color:var(--acc);text-decoration:underline}td.num,th.num{text-align:right}
tr.dep td{color:var(--mute)}td .tag{font-size:.8rem;border:1px solid var(--line);border-radius:3px;padding:0 4px;margin-right:4px}
.diff{background:var(--hi)}.bad{color:var(--bad)}
pre{background:rgba(127,127,127,.12);padding:8px;border-radius:6px;overflow-x:auto}
details{margin:4px 0}summary{cursor:pointer}
.cols label{flex-direction:row;gap:4px;align-items:center}
#status{margin:6px 0}
@media (max-width:640px){body{font-size:14px}fieldset{flex-direction:column;align-items:stretch}input[type=search]{width:100%}}
`;

const BODY = `<header><h1 id="title"></h1><p class="mute" id="subtitle"></p></header>
<main>
<form id="filters" role="search" aria-label="Filter instance types">
<fieldset><legend>Filter</legend>
<label>Search<input type="search" id="f-q" placeholder="name, class, description"></label>
<label>vCPUs from<input type="number" id="f-cpu-min" min="0"></label><label>to<input type="number" id="f-cpu-max" min="0"></label>
<label>Memory from (GiB)<input type="number" id="f-mem-min" min="0" step="any"></label><label>to (GiB)<input type="number" id="f-mem-max" min="0" step="any"></label>
<label>Architecture<select id="f-arch"><option value="">any</option></select></label>
<label>Family<select id="f-fam"><option value="">any</option></select></label>
<label>Class<select id="f-cls"><option value="">any</option></select></label>
<label>Hugepages<select id="f-hp"><option value="">any or none</option></select></label>
<label>GPU or device<select id="f-gpu"><option value="">any or none</option></select></label>
<label>Admitted with preference<select id="f-pref"><option value="">any</option></select></label>
<label class="check"><input type="checkbox" id="f-ded">Dedicated CPUs</label>
<label class="check"><input type="checkbox" id="f-dep">Show deprecated</label>
<button type="button" id="reset">Reset</button>
</fieldset>
<details><summary>Columns</summary><fieldset class="cols" id="cols"><legend>Columns shown</legend></fieldset></details>
</form>
<p id="status" role="status" aria-live="polite"></p>
<p><button type="button" id="csv">Download CSV</button> <button type="button" id="json">Download JSON</button> <span class="mute">(the rows shown by the filters)</span></p>
<div class="wrap" id="table"><table><caption class="mute">Instance types; choose a name for its details and a VM snippet</caption><thead id="thead"></thead><tbody id="tbody"></tbody></table></div>
<p><button type="button" id="more" hidden>Show more</button></p>
<section aria-labelledby="h-details"><h2 id="h-details">Details</h2><div id="details" hidden></div></section>
<section aria-labelledby="h-compare"><h2 id="h-compare">Compare</h2><div id="compare" class="wrap"></div></section>
<section aria-labelledby="h-prefs"><h2 id="h-prefs">Preferences</h2><div id="preferences"></div></section>
<section aria-labelledby="h-history"><h2 id="h-history">Release history</h2><div id="history"></div></section>
</main>`;

/** What marks a page itgen wrote: `itgen site` replaces only such an index.html. */
export const SITE_MARKER = 'itgen catalog explorer';

const hash = (s: string): string => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

/** JSON that no `</script>`, `<!--` or line separator in it can break out of its element. */
function inertJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The explorer page for `data`: one file, no other request. */
export function sitePage(data: SiteData): string {
  const script = EXPLORER_SCRIPT;
  const csp = ["default-src 'none'", `script-src ${hash(script)}`, `style-src ${hash(CSS)}`, "img-src 'none'", "base-uri 'none'", "form-action 'none'"].join(
    '; ',
  );
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<meta name="generator" content="${SITE_MARKER}">`,
    '<title>Instance types</title>',
    `<style>${CSS}</style>`,
    '</head>',
    '<body>',
    BODY,
    `<script type="application/json" id="itgen-data">${inertJson(data)}</script>`,
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
