import Handlebars from 'handlebars';

/**
 * Free text (descriptions, display names, extra metadata values) may use Handlebars. The
 * environment is isolated, strict (a missing variable is an error, not an empty string), has no
 * helpers, no partials and no HTML escaping, and cannot reach prototype properties.
 */
const env = Handlebars.create();
// `log` writes to the console and `lookup` reads arbitrary properties: neither belongs in catalog text.
env.unregisterHelper('log');
env.unregisterHelper('lookup');
const cache = new Map<string, HandlebarsTemplateDelegate | Error>();

export type TextContext = Readonly<Record<string, string | number | undefined>>;

export function renderText(template: string, context: TextContext): { ok: true; text: string } | { ok: false; error: string } {
  if (!template.includes('{{')) return { ok: true, text: template };
  let compiled = cache.get(template);
  if (compiled === undefined) {
    try {
      // precompile parses eagerly, so syntax errors surface here rather than at first use
      env.precompile(template, { strict: true, knownHelpersOnly: true });
      compiled = env.compile(template, { strict: true, noEscape: true, knownHelpersOnly: true });
    } catch (e) {
      compiled = e as Error;
    }
    cache.set(template, compiled);
  }
  if (compiled instanceof Error) return { ok: false, error: firstLine(compiled.message) };
  try {
    const clean: Record<string, string | number> = Object.create(null) as Record<string, string | number>;
    for (const [k, v] of Object.entries(context)) if (v !== undefined) clean[k] = v;
    const text = compiled(clean, {
      allowProtoPropertiesByDefault: false,
      allowProtoMethodsByDefault: false,
      helpers: {},
      partials: {},
    });
    return { ok: true, text };
  } catch (e) {
    return { ok: false, error: firstLine((e as Error).message) };
  }
}

function firstLine(s: string): string {
  return (s.split('\n')[0] ?? s).trim();
}
