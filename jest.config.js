/**
 * Three suites, one run (`npm test` runs them all): `unit` (in-process tests of the library and the
 * CLI's fast cases; `npm run test:unit`, under a minute on two cores), `corpora` (replays of the
 * answers of KubeVirt's and Kubernetes' code, of the earlier audits' cases, property and scale runs; each corpus split
 * into files, so that `jest --selectProjects corpora --shard=i/n` runs it in parallel shards) and
 * `e2e` (the built package, its launcher, the browser, GitLab pipelines, the release loop).
 */
const shared = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  // The fast parser's model, as the bundle carries it (test/setup.ts).
  setupFiles: ['<rootDir>/test/setup.ts'],
  // Type checking is `npm run typecheck`'s job (npm test runs it first): with `isolatedModules` in
  // tsconfig.json ts-jest only transpiles, file by file, which is what makes a suite start fast.
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }],
    // cel-js is ES modules only: transpiled to CommonJS for jest's module system (node itself loads it as it is).
    '/node_modules/@marcbachmann/cel-js/.+\\.js$': [
      'ts-jest',
      { tsconfig: { allowJs: true, module: 'commonjs', target: 'es2022', isolatedModules: true }, diagnostics: false },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!@marcbachmann/cel-js/)'],
};

/** Replays of answered and generated cases: the oracle corpora, the earlier audits' corpora, the property and scale runs. */
const CORPORA = [
  '**/test/*-corpus*.test.ts',
  '**/test/regression-*.test.ts',
  '**/test/conformance.test.ts',
  '**/test/properties.test.ts',
  '**/test/fuzz.test.ts',
  '**/test/policy-scale.test.ts',
  '**/test/findings-scale.test.ts',
];
/** The built package end to end: launcher, install, browser, pipelines, the release loop. */
const E2E = [
  '**/test/e2e-*.test.ts',
  '**/test/site-browser.test.ts',
  '**/test/gitlab-*.test.ts',
  '**/test/launcher.test.ts',
  '**/test/package.test.ts',
  '**/test/large-catalog.test.ts',
];

/** @type {import('jest').Config} */
module.exports = {
  // Two cores: one worker each (jest's default leaves one core idle).
  maxWorkers: 2,
  testTimeout: 120000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['**/test/*.test.ts'], testPathIgnorePatterns: [...CORPORA, ...E2E].map(glob) },
    { ...shared, displayName: 'corpora', testMatch: CORPORA },
    { ...shared, displayName: 'e2e', testMatch: E2E },
  ],
};

/** A testMatch glob of this file as the regular expression testPathIgnorePatterns takes. */
function glob(g) {
  return g
    .replace(/^\*\*\/test\//, '/test/')
    .replace(/\./g, '\\.')
    .replace(/\*/g, '[^/]*')
    .concat('$');
}
