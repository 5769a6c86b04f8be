/** `{placeholder}` name patterns (structure, not free text: no Handlebars here). */
export function expandPattern(pattern: string, vars: Readonly<Record<string, string | undefined>>): { ok: true; text: string } | { ok: false; error: string } {
  let error: string | undefined;
  const text = pattern.replace(/\{([^{}]*)\}/g, (_m, name: string) => {
    if (!Object.hasOwn(vars, name)) {
      error ??= `unknown placeholder \`{${name}}\`; known: ${Object.keys(vars)
        .map((k) => `{${k}}`)
        .join(', ')}`;
      return '';
    }
    const v = vars[name];
    if (v === undefined) {
      error ??= `placeholder \`{${name}}\` has no value here`;
      return '';
    }
    return v;
  });
  return error !== undefined ? { ok: false, error } : { ok: true, text };
}
