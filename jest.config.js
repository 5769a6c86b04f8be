/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The fast parser's model, as the bundle carries it (test/setup.ts).
  setupFiles: ['<rootDir>/test/setup.ts'],
  // Type checking is `npm run typecheck`'s job (npm test runs it first): with `isolatedModules` in
  // tsconfig.json ts-jest only transpiles, file by file, which is what makes a suite start fast.
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }] },
  // Two cores: one worker each (jest's default leaves one core idle).
  maxWorkers: 2,
  testTimeout: 120000,
};
