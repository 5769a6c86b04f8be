#!/usr/bin/env node
// Validates GitHub Actions workflow files with GitHub's own parser (@actions/workflow-parser, the
// package GitHub's Actions language server uses): YAML, the workflow schema and expressions. Prints
// each error as `file: message` and exits 1 when there is one. The package imports JSON without
// import attributes, which node refuses, so it is bundled with esbuild first (both development
// dependencies). Usage: node tools/check-workflow.mjs FILE...
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import * as esbuild from 'esbuild';

const dir = mkdtempSync(path.join(os.tmpdir(), 'itgen-workflow-parser-'));
const out = path.join(dir, 'parser.cjs');
try {
  await esbuild.build({
    stdin: { contents: "export * from '@actions/workflow-parser';", resolveDir: path.dirname(new URL(import.meta.url).pathname), loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: out,
    logLevel: 'error',
  });
  const { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } = createRequire(import.meta.url)(out);
  let failed = false;
  for (const file of process.argv.slice(2)) {
    const parsed = parseWorkflow({ name: file, content: readFileSync(file, 'utf8') }, new NoOperationTraceWriter());
    const errors = [...parsed.context.errors.getErrors()];
    if (parsed.value) {
      const template = await convertWorkflowTemplate(parsed.context, parsed.value);
      errors.push(...(template.errors ?? []));
    }
    for (const e of errors) {
      failed = true;
      console.log(`${file}: ${e.message ?? e.Message ?? String(e)}`);
    }
  }
  process.exitCode = failed ? 1 : 0;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
