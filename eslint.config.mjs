// ESLint (flat config): typescript-eslint's recommended rules, Prettier for layout, and the rule
// that keeps the architecture readable from the tree: a stage of src/ never imports a later one.
import { readFileSync } from 'node:fs';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * The stages of src/ from the bottom up (docs/design.md, "Pipeline"). A module may import its own
 * stage and every stage before it. `pipeline` is src/pipeline.ts, which chains the stages up to
 * the compatibility matrix and the admission policies (the release lock's check is validate/lock.ts); `index` is src/index.ts,
 * the public surface over everything.
 */
const { stages: STAGES, files: ROOT_FILES } = JSON.parse(readFileSync(new URL('./tools/stages.json', import.meta.url), 'utf8'));

/**
 * The modules of src/ that import node:fs themselves: the door every read goes through, the writers
 * (each write taints a recording), the caches (their files are no input of what they cache), the
 * snapshot's warm-up, and the MCP server's schemas read beside the unbundled library.
 */
const FS_MODULES = [
  'src/load/reads.ts',
  'src/load/judged-cache.ts',
  'src/load/check-cache.ts',
  'src/emit/write.ts',
  'src/emit/output-lock.ts',
  'src/snapshot.ts',
  'src/workflows/mcp.ts',
];

/** A module of src/ named by its stage: a folder (`render/x`) or a file at the root (`pipeline`). */
const target = (name) => `(?:${name}(?:/.*)?|${name}\\.[jt]s)`;

function stageRule(level) {
  const later = STAGES.slice(level + 1).flat();
  if (later.length === 0) return [];
  const isRoot = STAGES[level].every((n) => ROOT_FILES.includes(n));
  // From a folder stage, other stages are `../x`; from a file at the root, `./x`.
  const prefix = isRoot ? '\\./' : '(?:\\.\\./)+';
  const patterns = [
    {
      regex: `^${prefix}${`(?:${later.map(target).join('|')})`}$`,
      message: `a stage of src/ never imports a later one (order: ${STAGES.map((s) => s.join('|')).join(' < ')}); move the shared piece down`,
    },
  ];
  const files = STAGES[level].map((n) => (ROOT_FILES.includes(n) ? `src/${n}.ts` : `src/${n}/**/*.ts`));
  return [{ files, rules: { 'no-restricted-imports': ['error', { patterns }] } }];
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'output/**', 'coverage/**', 'test/reference/**', 'test/fixtures/**', 'test/regression/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        performance: 'readonly',
        globalThis: 'readonly',
      },
    },
    rules: {
      // itgen escapes control characters in what it prints, so its regular expressions name them on purpose.
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  // The benchmarks' child processes are CommonJS scripts run by plain node.
  { files: ['**/*.cjs'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  ...STAGES.flatMap((_, level) => stageRule(level)),
  // Every read of the file system goes through src/load/reads.ts, which can record it: the checks'
  // cache (src/load/check-cache.ts) is sound only if nothing the checks read escapes the record.
  // The modules that keep node:fs write (and taint a recording), or are caches of their own.
  {
    files: ['src/**/*.ts'],
    ignores: FS_MODULES,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportDeclaration[source.value=/^(node:)?fs(\\u002Fpromises)?$/]',
          message: 'read files through src/load/reads.ts (its log makes the checks cacheable); node:fs is for the modules listed in eslint.config.mjs',
        },
        {
          selector: "CallExpression[callee.name='require'][arguments.0.value=/^(node:)?fs(\\u002Fpromises)?$/]",
          message: 'read files through src/load/reads.ts (its log makes the checks cacheable); node:fs is for the modules listed in eslint.config.mjs',
        },
      ],
    },
  },
  prettier,
);
