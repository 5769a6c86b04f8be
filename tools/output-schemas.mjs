#!/usr/bin/env node
// Generates schema/output/*.schema.json, the JSON Schemas (2020-12) of every command's JSON output
// and of the MCP tools' structured answers, from their TypeScript types (src/workflows/output.ts
// re-exports one type per document) with ts-json-schema-generator. `--check` writes nothing and
// exits 1 naming each file that differs from what the types give (the test suite runs it).
//
//   node tools/output-schemas.mjs [--check]
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGenerator } from 'ts-json-schema-generator';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(repo, 'src', 'workflows', 'output.ts');
const dir = path.join(repo, 'schema', 'output');

/** Each document: its file under schema/output/, its type, and what prints it. */
export const DOCUMENTS = [
  ['diagnostics', 'DiagnosticsJson', 'itgen --format json (every command): the diagnostics'],
  ['diff', 'DiffJson', 'itgen diff -o json'],
  ['expand', 'ExpandJson', 'itgen expand -o json'],
  ['facts', 'FactsJson', 'itgen facts -o json'],
  ['fit', 'FitJson', 'itgen fit -o json'],
  ['matrix', 'MatrixJson', 'itgen matrix -o json'],
  ['migrate-templates', 'MigrateTemplatesJson', 'itgen migrate templates -o json'],
  ['notes', 'NotesJson', 'itgen notes -o json'],
  ['policy', 'PolicyJson', 'itgen policy -o json'],
  ['resize', 'ResizeJson', 'itgen resize -o json'],
  ['select', 'SelectJson', 'itgen select -o json'],
  ['template-process', 'TemplateProcessJson', 'itgen template process -o json'],
  ['template-sweep', 'TemplateSweepJson', 'itgen template sweep -o json'],
  ['mcp-select', 'McpSelectOutput', 'itgen mcp: the select tool'],
  ['mcp-validate', 'McpValidateOutput', 'itgen mcp: the validate tool'],
  ['mcp-expand', 'McpExpandOutput', 'itgen mcp: the expand tool'],
  ['mcp-fit', 'McpFitOutput', 'itgen mcp: the fit tool'],
  ['mcp-resize', 'McpResizeOutput', 'itgen mcp: the resize tool'],
  ['mcp-template-process', 'McpTemplateProcessOutput', 'itgen mcp: the template_process tool'],
];

/** Draft-07 as the generator writes it, as 2020-12: `$defs` for `definitions`, readable definition names. */
function to2020(schema, name, title) {
  const defs = schema.definitions ?? {};
  // Definition names of utility types are URI-encoded TypeScript (`Omit%3CVmPlacement%2C%22reasons%22%3E`): name them plainly.
  const names = new Map();
  for (const key of Object.keys(defs)) {
    let plain = decodeURIComponent(key)
      .replace(/[^A-Za-z0-9_.-]+/g, '-')
      .replace(/^-|-$/g, '');
    while ([...names.values()].includes(plain)) plain += '_';
    names.set(key, plain);
  }
  const rewrite = (v) => {
    if (Array.isArray(v)) return v.map(rewrite);
    if (v === null || typeof v !== 'object') return v;
    const out = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string' && x.startsWith('#/definitions/')) out[k] = `#/$defs/${names.get(x.slice('#/definitions/'.length))}`;
      else if (k === 'items' && Array.isArray(x)) out.prefixItems = rewrite(x);
      else if (k === 'additionalItems') out.items = rewrite(x);
      else out[k] = rewrite(x);
    }
    return out;
  };
  const { $schema: _draft, definitions: _defs, ...body } = schema;
  const $defs = Object.fromEntries([...names].sort((a, b) => (a[1] < b[1] ? -1 : 1)).map(([key, plain]) => [plain, rewrite(defs[key])]));
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `https://itgen.dev/schema/output/${name}.schema.json`,
    title,
    ...rewrite(body),
    ...(Object.keys($defs).length > 0 ? { $defs } : {}),
  };
}

/** The schema files the types give: file name -> text. */
export function generate() {
  const exported = [...readFileSync(source, 'utf8').matchAll(/export type \{([^}]+)\}/g)].flatMap((m) => m[1].split(',').map((n) => n.trim()));
  const listed = DOCUMENTS.map(([, type]) => type);
  const unlisted = exported.filter((n) => !listed.includes(n));
  const missing = listed.filter((n) => !exported.includes(n));
  if (unlisted.length > 0 || missing.length > 0)
    throw new Error(
      `src/workflows/output.ts and tools/output-schemas.mjs disagree: not listed ${unlisted.join(', ') || '-'}; not exported ${missing.join(', ') || '-'}`,
    );
  const generator = createGenerator({
    path: source,
    tsconfig: path.join(repo, 'tsconfig.json'),
    skipTypeCheck: true,
    expose: 'export',
    topRef: false,
    jsDoc: 'extended',
    additionalProperties: false,
    sortProps: true,
  });
  return new Map(
    DOCUMENTS.map(([name, type, title]) => [`${name}.schema.json`, `${JSON.stringify(to2020(generator.createSchema(type), name, title), null, 2)}\n`]),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  const files = generate();
  const stale = [];
  for (const [file, text] of files) {
    let committed;
    try {
      committed = readFileSync(path.join(dir, file), 'utf8');
    } catch {
      committed = undefined;
    }
    if (committed === text) continue;
    stale.push(file);
    if (!check) writeFileSync(path.join(dir, file), text);
  }
  const stray = readdirSync(dir).filter((f) => !files.has(f));
  if (check && (stale.length > 0 || stray.length > 0)) {
    for (const f of stale) console.error(`schema/output/${f}: not what the types give (run node tools/output-schemas.mjs)`);
    for (const f of stray) console.error(`schema/output/${f}: no type makes it`);
    process.exit(1);
  }
  if (!check) console.log(stale.length === 0 ? 'schema/output: up to date' : `schema/output: wrote ${stale.join(', ')}`);
}
