import { KUBEVIRT_OPTION, KUBEVIRT_VERSION_OPTION, WITH_OPTION, optionValue, type CommandSpec } from '../parse';
import { startMcp } from '../../workflows/mcp';
import { EXIT_OK, projectOf, type Command } from '../command';

export const MCP_COMMAND: CommandSpec = {
  name: 'mcp',
  synopsis: 'mcp [--with FILE]... [--kubevirt FILE] [--kubevirt-version V] [--nodes FILE] [--pods FILE]',
  summary: 'a Model Context Protocol server over stdio, for agents: select, validate, expand, fit, resize, template_process',
  details: [
    'Serves the Model Context Protocol over standard input and output (the official TypeScript SDK), read-only.',
    'Tools: select (one instance type and preference for an ask, as `itgen select --os/--intent/--size`),',
    'validate (a VM judged as `itgen validate` judges it), expand (as `itgen expand`), fit (where a VM runs',
    'on the nodes given here with --nodes and --pods, as `itgen fit`), resize (as `itgen resize --to`) and',
    'template_process (as `itgen template process`). Each has an input and an output schema and answers with structured content',
    "that conforms; a refusal is an error result with the actionable words. The catalogs are the project's",
    'and the --with files named here, at the release and configuration named here; a client sends a VM or',
    'a template as text, never a path. Register it with an MCP client as: itgen -C /path/to/project mcp',
  ].join('\n'),
  options: [
    WITH_OPTION,
    KUBEVIRT_OPTION,
    KUBEVIRT_VERSION_OPTION,
    { flag: '--nodes', value: 'FILE', help: "the cluster's nodes (kubectl get nodes -o yaml), for the fit tool" },
    { flag: '--pods', value: 'FILE', help: 'what already runs on them (kubectl get pods -A -o yaml), for the fit tool' },
  ],
};

export const mcp: Command = {
  ...MCP_COMMAND,
  run(ctx) {
    const nodes = optionValue(ctx.line, '--nodes');
    const pods = optionValue(ctx.line, '--pods');
    startMcp(
      (stdin) => projectOf({ ...ctx, io: { ...ctx.io, stdin: () => stdin } }),
      { ...(nodes !== undefined ? { nodes } : {}), ...(pods !== undefined ? { pods } : {}) },
      ctx.io.err,
    );
    return EXIT_OK;
  },
};
