import { Schema } from 'yaml';

/**
 * Fixed serializer options: part of the output format, changing them changes every file.
 * `version: '1.1'` makes the library quote every string a YAML 1.1 reader would take for
 * something else (`yes`, `on`, `n`, `1:20`, `0b1`, `e1000`...): Kubernetes tooling reads YAML with
 * go-yaml's 1.1 rules, where a label value `on` would become a boolean. Quoted strings read the
 * same in 1.1 and 1.2.
 */
export const YAML_OPTIONS = {
  version: '1.1',
  indent: 2,
  indentSeq: true,
  lineWidth: 0,
  minContentWidth: 0,
  blockQuote: 'literal',
  defaultStringType: 'PLAIN',
  defaultKeyType: 'PLAIN',
  singleQuote: false,
  aliasDuplicateObjects: false,
} as const;

/** The plain-scalar patterns of the YAML 1.1 schema that resolve to something other than a string. */
const NON_STRING_PATTERNS: readonly RegExp[] = new Schema({ schema: 'yaml-1.1' }).tags.flatMap((t) =>
  t.tag !== 'tag:yaml.org,2002:str' && 'test' in t && t.test instanceof RegExp ? [t.test] : [],
);

/**
 * The same patterns as one expression (each alternative keeps its own anchors), so that a string is
 * scanned once rather than once per pattern; only when none of them has flags, which would not
 * carry over to the union.
 */
const NON_STRING_UNION: RegExp | undefined = NON_STRING_PATTERNS.every((re) => re.flags === '')
  ? new RegExp(NON_STRING_PATTERNS.map((re) => `(?:${re.source})`).join('|'))
  : undefined;

/** Whether a plain scalar with this text would be read as a non-string under YAML 1.1. */
export function readsAsNonString(text: string): boolean {
  return NON_STRING_UNION ? NON_STRING_UNION.test(text) : NON_STRING_PATTERNS.some((re) => re.test(text));
}
