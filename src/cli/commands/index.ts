import type { Command } from '../command';
import { build } from './build';
import { bundle } from './bundle';
import { check } from './check';
import { diff } from './diff';
import { docs } from './docs';
import { expand } from './expand';
import { explain } from './explain';
import { facts } from './facts';
import { fit } from './fit';
import { fn } from './fn';
import { generate } from './generate';
import { init } from './init';
import { matrix } from './matrix';
import { mcp } from './mcp';
import { policy } from './policy';
import { resize } from './resize';
import { migrate } from './migrate';
import { notes } from './notes';
import { release } from './release';
import { schema } from './schema';
import { select } from './select';
import { site } from './site';
import { template } from './template';
import { validate } from './validate';

/** Every command, in the order `itgen help` lists them. A new command is a file here and a line below. */
export const COMMANDS: readonly Command[] = [
  init,
  generate,
  validate,
  check,
  diff,
  docs,
  release,
  notes,
  bundle,
  build,
  fn,
  explain,
  expand,
  matrix,
  facts,
  resize,
  fit,
  policy,
  select,
  site,
  migrate,
  template,
  mcp,
  schema,
];
