/** itgen's version, as package.json says (test/cli.test.ts keeps the two equal). */
export const VERSION = '0.1.0';
