import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { objectStore, type ObjectStore } from '../src/expand';
import type { JsonObject } from '../src/json';
import { REFERENCE, REPO } from './helpers';

export function readObjects(text: string): JsonObject[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as unknown)
    .filter((o): o is JsonObject => o !== null && typeof o === 'object' && !Array.isArray(o));
}

/** The upstream common-instancetypes bundle (test/reference), as `--with` reads it. */
export const UPSTREAM: ObjectStore = objectStore(
  readObjects(readFileSync(path.join(REFERENCE, 'common-instancetypes', 'common-instancetypes-all-bundle.yaml'), 'utf8')),
);

/** The committed output of this project's common-instancetypes generator. */
export function projectStore(generator = 'common-instancetypes'): ObjectStore {
  const dir = path.join(REPO, 'output', generator);
  const objects = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(path.join(dir, d.name))
        .filter((f) => f.startsWith('virtualmachine'))
        .flatMap((f) => readObjects(readFileSync(path.join(dir, d.name, f), 'utf8'))),
    );
  return objectStore(objects);
}
