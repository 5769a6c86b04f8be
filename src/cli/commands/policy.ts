import { policy as policyOf, policyJson, policyYaml } from '../../workflows/policy';
import { finish, type Command, outputOf, projectOf } from '../command';
import { POLICY_COMMAND, OUTPUT } from '../../commands/policy';

export const policy: Command = {
  ...POLICY_COMMAND,
  run(ctx) {
    const r = policyOf(projectOf(ctx));
    return finish(ctx, r, r.policies.length === 0 ? undefined : outputOf(ctx, OUTPUT) === 'json' ? policyJson(r) : policyYaml(r));
  },
};
