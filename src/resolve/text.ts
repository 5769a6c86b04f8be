import type HandlebarsModule from 'handlebars';
import { didYouMean } from '../diagnostics';

/**
 * Free text (descriptions, display names, extra metadata values) may use Handlebars, but only a
 * small, checked subset: `{{variable}}` of the variables the caller offers, `{{#if variable}}` /
 * `{{#unless variable}}` blocks with `{{else}}`, and comments. Everything else Handlebars can do
 * (helpers such as `lookup`, `each` and `with`, partials, `this`, `..`, `@root`, dotted paths,
 * sub-expressions) is rejected before anything is compiled, with a message that names the
 * offending expression: catalog text must not reach into JavaScript objects.
 *
 * The environment is isolated from the global one, strict (a missing variable is an error, not an
 * empty string), has no helpers, no partials, no HTML escaping, and no prototype access.
 *
 * Handlebars itself loads on the first template that needs it (a block, a helper's name, a parse
 * error): plain `{{variable}}` text, nearly all a catalog has, renders without it (renderSimple).
 * So it is not in the startup snapshot, where it would cost every start, and where it made Node
 * 22's `--build-snapshot` abort (std::length_error), leaving that node line without a snapshot.
 */
let handlebars: ReturnType<typeof HandlebarsModule.create> | undefined;
function env(): ReturnType<typeof HandlebarsModule.create> {
  if (handlebars === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    handlebars = (require('handlebars') as typeof HandlebarsModule).create();
    // `log` writes to the console and `lookup` reads arbitrary properties: neither belongs in catalog text.
    handlebars.unregisterHelper('log');
    handlebars.unregisterHelper('lookup');
  }
  return handlebars;
}

/** The helpers of that environment (Handlebars' own but `log` and `lookup`), known without loading it; test/validation-rules.test.ts holds it to the environment's. */
export const HELPER_NAMES: ReadonlySet<string> = new Set(['blockHelperMissing', 'each', 'helperMissing', 'if', 'unless', 'with']);

/** The environment's helpers, for the test that holds HELPER_NAMES to them. */
export function environmentHelpers(): string[] {
  return Object.keys(env().helpers);
}

type Ast = hbs.AST.Program;
// Memos of pure functions of the template text (parsing and compiling it), shared by every run in
// the process; bounded, so that a long-lived library user compiling many catalogs does not grow them.
const MEMO_LIMIT = 2000;
const parsed = new Map<string, Ast | Error>();
const compiled = new Map<string, HandlebarsTemplateDelegate>();

export type TextContext = Readonly<Record<string, string | number | undefined>>;

const BLOCKS = new Set(['if', 'unless']);

/** The first expression of `ast` outside the allowed subset, as an error message; undefined if all is well. */
function checkProgram(ast: hbs.AST.Program, context: TextContext, guarded: ReadonlySet<string>, template: string): string | undefined {
  const known = Object.keys(context);
  const variable = (node: hbs.AST.Expression, source: string, inCondition: boolean): string | undefined => {
    if (node.type !== 'PathExpression') return `\`${source}\`: only variables may be used here, not literals or sub-expressions`;
    const p = node as hbs.AST.PathExpression;
    if (p.data) return `\`${source}\`: \`@${p.parts.join('.')}\` data variables are not available`;
    if (p.depth > 0 || p.original.startsWith('..')) return `\`${source}\`: parent scopes (\`..\`) are not available`;
    if (p.parts.length === 0 || /^(this|\.)([./]|$)/.test(p.original)) return `\`${source}\`: \`this\` is not available; name a variable`;
    if (p.parts.length > 1) return `\`${source}\`: \`${p.original}\` reaches into a property; only plain variables are available`;
    const name = p.parts[0]!;
    if (!Object.prototype.hasOwnProperty.call(context, name)) {
      const hint = didYouMean(name, known);
      return `\`${source}\`: unknown variable \`${name}\`${hint ? ` (${hint})` : ''}`;
    }
    if (!inCondition && context[name] === undefined && !guarded.has(name)) {
      return `\`${source}\`: \`${name}\` has no value here; guard it with \`{{#if ${name}}}...{{/if}}\``;
    }
    return undefined;
  };
  for (const stmt of ast.body) {
    const source = sourceOf(stmt, template);
    switch (stmt.type) {
      case 'ContentStatement':
      case 'CommentStatement':
        break;
      case 'MustacheStatement': {
        const m = stmt as hbs.AST.MustacheStatement;
        if (m.params.length > 0 || m.hash?.pairs?.length) return `\`${source}\`: helpers are not available; write a plain \`{{variable}}\``;
        const err = variable(m.path, source, false);
        if (err) return err;
        break;
      }
      case 'BlockStatement': {
        const b = stmt as hbs.AST.BlockStatement;
        const helper = b.path.type === 'PathExpression' ? (b.path as hbs.AST.PathExpression).original : '';
        if (!BLOCKS.has(helper)) return `\`${source}\`: block \`#${helper}\` is not available; only \`#if\` and \`#unless\` are`;
        if (b.params.length !== 1 || b.hash?.pairs?.length || (b.program?.blockParams?.length ?? 0) > 0) {
          return `\`${source}\`: \`#${helper}\` takes exactly one variable`;
        }
        const cond = b.params[0]!;
        const err = variable(cond, source, true);
        if (err) return err;
        const name = (cond as hbs.AST.PathExpression).parts[0]!;
        const thenGuard = helper === 'if' ? new Set([...guarded, name]) : guarded;
        const elseGuard = helper === 'unless' ? new Set([...guarded, name]) : guarded;
        const inner =
          (b.program && checkProgram(b.program, context, thenGuard, template)) || (b.inverse && checkProgram(b.inverse, context, elseGuard, template));
        if (inner) return inner;
        break;
      }
      case 'PartialStatement':
      case 'PartialBlockStatement':
        return `\`${source}\`: partials are not available`;
      case 'Decorator':
      case 'DecoratorBlock':
        return `\`${source}\`: decorators are not available`;
      default:
        return `\`${source}\`: not available in catalog text`;
    }
  }
  return undefined;
}

/** The text of `node` in `template`, shortened for a message. */
function sourceOf(node: hbs.AST.Node, template: string): string {
  const lines = template.split('\n');
  const { start, end } = node.loc;
  if (start.line === end.line) {
    const text = (lines[start.line - 1] ?? '').slice(start.column, end.column);
    return text.length > 60 ? `${text.slice(0, 57)}...` : text;
  }
  const first = (lines[start.line - 1] ?? '').slice(start.column);
  return `${first.length > 57 ? first.slice(0, 57) : first}...`;
}

export function renderText(template: string, context: TextContext): { ok: true; text: string } | { ok: false; error: string } {
  if (!template.includes('{{')) return { ok: true, text: template };
  const simple = renderSimple(template, context);
  if (simple !== undefined) return { ok: true, text: simple };
  let ast = parsed.get(template);
  if (ast === undefined) {
    try {
      ast = env().parse(template);
    } catch (e) {
      ast = e as Error;
    }
    if (parsed.size < MEMO_LIMIT) parsed.set(template, ast);
  }
  if (ast instanceof Error) return { ok: false, error: firstLine(ast.message) };
  const bad = checkProgram(ast, context, new Set(), template);
  if (bad !== undefined) return { ok: false, error: bad };
  const plain = renderPlain(ast, context);
  return plain !== undefined ? { ok: true, text: plain } : renderCompiled(template, context);
}

// `{{name}}` with optional spaces inside, a name Handlebars reads as a plain path.
const SIMPLE_MUSTACHE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
// Names Handlebars reads as literals or keywords, not as variables.
const NOT_VARIABLES = new Set(['true', 'false', 'null', 'undefined', 'else', 'this']);

/**
 * Text with `{{variable}}`s only, each naming a variable that has a value (nearly every display
 * name and description), rendered without parsing it with Handlebars, whose parser is most of the
 * cost of rendering a catalog's text. Undefined for anything else (a backslash, a triple stash,
 * whitespace control, comments, blocks, an unknown or empty variable, a helper's name), which the
 * parsed path renders or reports. Held to Handlebars' own output by the property test in
 * test/validation-rules.test.ts.
 */
function renderSimple(template: string, context: TextContext): string | undefined {
  if (template.includes('\\')) return undefined;
  let text = '';
  let last = 0;
  for (const m of template.matchAll(SIMPLE_MUSTACHE)) {
    const start = m.index;
    const end = start + m[0].length;
    const before = template.slice(last, start);
    // Another mustache in the text between, or braces next to this one (`{{{x}}}`, `{{x}}}`).
    if (before.includes('{{') || template[start - 1] === '{' || template[end] === '}') return undefined;
    const name = m[1]!;
    const value = Object.hasOwn(context, name) ? context[name] : undefined;
    if (value === undefined || NOT_VARIABLES.has(name) || HELPER_NAMES.has(name)) return undefined;
    text += before + String(value);
    last = end;
  }
  const rest = template.slice(last);
  return rest.includes('{{') ? undefined : text + rest;
}

/**
 * A checked template of text, comments and `{{variable}}` only (most names and descriptions),
 * rendered without compiling it: the parsed text already has Handlebars' whitespace control applied,
 * and a variable renders as Handlebars renders it without escaping. Undefined for anything else
 * (blocks, a variable named like a Handlebars helper), which takes the compiled path.
 */
function renderPlain(ast: Ast, context: TextContext): string | undefined {
  let text = '';
  for (const stmt of ast.body) {
    if (stmt.type === 'ContentStatement') text += (stmt as hbs.AST.ContentStatement).value;
    else if (stmt.type === 'MustacheStatement') {
      const name = ((stmt as hbs.AST.MustacheStatement).path as hbs.AST.PathExpression).parts[0]!;
      const value = context[name];
      if (value === undefined || HELPER_NAMES.has(name)) return undefined;
      text += String(value);
    } else if (stmt.type !== 'CommentStatement') return undefined;
  }
  return text;
}

/** The compiled Handlebars path, for a template checkProgram accepted. */
function renderCompiled(template: string, context: TextContext): { ok: true; text: string } | { ok: false; error: string } {
  let fn = compiled.get(template);
  if (fn === undefined) {
    fn = env().compile(template, { strict: true, noEscape: true, knownHelpers: { if: true, unless: true }, knownHelpersOnly: true });
    if (compiled.size < MEMO_LIMIT) compiled.set(template, fn);
  }
  try {
    // Variables without a value are present but empty, so that `{{#if variant}}` works in strict mode;
    // the check above makes sure no unguarded `{{variant}}` reaches them. Numbers go in as text:
    // Handlebars joins adjacent variables with `+`, so `{{cpu}}{{ratio}}` would add 2 and 0.5.
    const clean: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [k, v] of Object.entries(context)) clean[k] = v === undefined ? '' : String(v);
    const text = fn(clean, {
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

/**
 * Handlebars' parse errors are four lines (where, the text, a caret, what was expected); keep the
 * where and the what on one line, with the column the caret points at.
 */
function firstLine(s: string): string {
  const lines = s.split('\n');
  const head = (lines[0] ?? s).trim();
  if (/^Parse error on line \d+:$/.test(head) && lines.length >= 4) {
    const caret = lines[2]!.indexOf('^');
    return `${head.slice(0, -1)}${caret >= 0 ? `, column ${caret + 1}` : ''}: ${lines.slice(3).join(' ').trim()}`;
  }
  return head;
}
