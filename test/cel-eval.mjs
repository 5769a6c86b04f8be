// Evaluates CEL expressions the way kustomize-controller's healthCheckExprs do (the object's fields
// are the variables), for test/gitops-examples.test.ts: @marcbachmann/cel-js is an ES module,
// which jest's CommonJS runtime cannot load. stdin: {expressions: [..], objects: [..]}; stdout: for
// each object, each expression's result (true/false) or "error".
import { readFileSync } from 'node:fs';
import { Environment } from '@marcbachmann/cel-js';

const { expressions, objects } = JSON.parse(readFileSync(0, 'utf8'));
const env = new Environment({ enableOptionalTypes: true, unlistedVariablesAreDyn: true });
const results = objects.map((o) =>
  expressions.map((e) => {
    try {
      return env.evaluate(e, o) === true;
    } catch {
      return 'error';
    }
  }),
);
process.stdout.write(JSON.stringify(results));
