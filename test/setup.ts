/**
 * Every test runs with the fast parser's model installed, as the bundle (tools/bundle.mjs) and so
 * the CLI run with it: made here from the zod schemas, as the bundle makes it.
 */
import { installModel } from '../src/schema/fast';
import { schemaModel } from '../src/schema/model';

installModel(schemaModel());
