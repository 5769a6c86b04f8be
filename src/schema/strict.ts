/**
 * zod's side of itgen: the schemas and what works on them, loaded through schema/lazy.ts only when
 * a value needs zod (one the fast parser does not answer for, the issues of a mistake, the JSON
 * Schemas, the library's exports). Nothing on the path of a sound catalog imports this file.
 */
export { CATALOG_KINDS } from './catalog';
export { catalogJsonSchema } from './catalog-json';
export { checkAgainst, misspeltKey } from './check';
export { generatorJsonSchema, generatorSchema } from './generator';
export { lockJsonSchema, lockSchema } from './lock';
export { manifestSchemaFor } from './manifest';
export { schemaModel } from './model';
