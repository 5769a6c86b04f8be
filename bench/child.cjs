// Runs the CLI in this process and reports its own peak memory, so the parent can measure a real
// cold start (node startup included) and the peak RSS of exactly that run.
const { run } = require('../dist/cli/main.js');
const code = run(process.argv.slice(2), {
  out: () => {},
  err: (s) => process.stderr.write(s.endsWith('\n') ? s : `${s}\n`),
  cwd: process.cwd(),
  color: false,
});
process.stdout.write(JSON.stringify({ code, maxRssKiB: process.resourceUsage().maxRSS }) + '\n');
process.exitCode = code;
