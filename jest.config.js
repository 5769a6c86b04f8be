/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
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
  // Two cores: one worker each (jest's default leaves one core idle).
  maxWorkers: 2,
  testTimeout: 120000,
};
