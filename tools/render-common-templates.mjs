#!/usr/bin/env node
// Renders kubevirt/common-templates' Windows templates (templates/windows*.tpl.yaml, an Ansible
// playbook's Jinja) for the flavors generate-templates.yaml lists, without Ansible: the few Jinja
// forms those files use ({{ item.x }}, the osinfo and env lookups, if/else/endif over item fields).
// osinfo-db is a GitLab submodule of that repository this machine cannot fetch: its display name
// and minimum RAM are the values below, stated in test/fixtures/common-templates/README.md.
//   node tools/render-common-templates.mjs COMMON_TEMPLATES_GIT_DIR OUT_DIR
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

const [gitDir, out] = process.argv.slice(2);
const show = (file) => execFileSync('git', ['--git-dir', gitDir, 'show', `HEAD:${file}`], { encoding: 'utf8' });
const OSINFO = {
  win11: { name: 'Microsoft Windows 11', ram: 4294967296 },
  win2k22: { name: 'Microsoft Windows Server 2022', ram: 536870912 },
  win2k19: { name: 'Microsoft Windows Server 2019', ram: 536870912 },
  win10: { name: 'Microsoft Windows 10', ram: 2147483648 },
};
const playbook = YAML.parse(show('generate-templates.yaml'))[0].tasks;

function evaluate(expr, item, vars) {
  const e = expr
    .replace(/lookup\('osinfo',\s*(\w+)\)\.name/g, (_, v) => JSON.stringify(OSINFO[vars[v]].name))
    .replace(/lookup\('osinfo',\s*'(\w+)'\)\.name/g, (_, v) => JSON.stringify(OSINFO[v].name))
    .replace(/lookup\('osinfo',\s*(\w+)\)\["minimum_resources[^"]*\.ram"\]/g, (_, v) => String(OSINFO[vars[v]].ram))
    .replace(/lookup\('env',\s*'VERSION'\)\s*\|\s*default\('devel',\s*true\)/g, '"devel"')
    .replace(/lookup\('env',\s*'REVISION'\)\s*\|\s*default\(1,\s*true\)/g, '1')
    .replace(/\band\b/g, '&&')
    .replace(/\bor\b/g, '||');
  return new Function('item', `return (${e});`)(item);
}

function render(text, item, vars) {
  const lines = text.split('\n');
  const out = [];
  const stack = [];
  const active = () => stack.every((s) => s.on);
  for (const line of lines) {
    const m = /^\s*\{%\s*(if|else|endif)\s*(.*?)\s*%\}\s*$/.exec(line);
    if (m) {
      if (m[1] === 'if') stack.push({ on: Boolean(evaluate(m[2], item, vars)) });
      else if (m[1] === 'else') stack[stack.length - 1].on = !stack[stack.length - 1].on;
      else stack.pop();
      continue;
    }
    if (!active()) continue;
    out.push(line.replace(/\{\{\s*(.*?)\s*\}\}/g, (_, e) => String(evaluate(e, item, vars) ?? '')));
  }
  return out.join('\n');
}

mkdirSync(out, { recursive: true });
let n = 0;
for (const task of playbook) {
  const src = task.template?.src;
  if (!src || !/^windows/.test(src) || !OSINFO[task.vars?.osinfoname]) continue;
  const text = show(`templates/${src}`);
  for (const item of task.with_items) {
    const file = `${src.replace('.tpl.yaml', '')}-${item.workload}-${item.flavor}.yaml`;
    writeFileSync(path.join(out, file), render(text, item, task.vars));
    n++;
  }
}
console.log(`${n} templates`);
