import { KUBEVIRT_OPTION, KUBEVIRT_VERSION_OPTION, WITH_OPTION, type CommandSpec } from '../parse';
import { startMcp } from '../../workflows/mcp';
import { EXIT_OK, projectOf, type Command } from '../command';

export const MCP_COMMAND: CommandSpec = {
  name: 'mcp',
  synopsis: 'mcp [--with FILE]... [--kubevirt FILE] [--kubevirt-version V]',
  summary: 'a Model Context Protocol server over stdio, for agents: select, validate, expand, template_process',
  details: [
    'Serves the Model Context Protocol over standard input and output (the official TypeScript SDK), read-only.',
    'Tools: select (one instance type and preference for an ask, as `itgen select --os/--intent/--size`),',
    'validate (a VM judged as `itgen validate` judges it), expand (as `itgen expand`) and template_process (as',
    '`itgen template process`). Each has an input and an output schema and answers with structured content',
    "that conforms; a refusal is an error result with the actionable words. The catalogs are the project's",
    'and the --with files named here, at the release and configuration named here; a client sends a VM or',
    'a template as text, never a path. Register it with an MCP client as: itgen -C /path/to/project mcp',
  ].join('\n'),
  options: [WITH_OPTION, KUBEVIRT_OPTION, KUBEVIRT_VERSION_OPTION],
};

export const mcp: Command = {
  ...MCP_COMMAND,
  run(ctx) {
    startMcp((stdin) => projectOf({ ...ctx, io: { ...ctx.io, stdin: () => stdin } }), ctx.io.err);
    return EXIT_OK;
  },
};
