import { select as selectOf, selectCsv, selectText } from '../../workflows/select';
import { optionSet, optionValue, optionValues } from '../../commands/spec';
import { finish, type Command, outputOf, projectOf } from '../command';
import { SELECT_COMMAND, OUTPUT } from '../../commands/select';

export const select: Command = {
  ...SELECT_COMMAND,
  run(ctx) {
    const { line } = ctx;
    const text = (flag: string): Record<string, string> => {
      const v = optionValue(line, `--${flag}`);
      return v === undefined ? {} : { [flag]: v };
    };
    const r = selectOf(projectOf(ctx), {
      ...text('cpu'),
      ...text('memory'),
      ...text('arch'),
      ...text('hugepages'),
      ...text('gpu'),
      ...text('preference'),
      ...text('text'),
      dedicated: optionSet(line, '--dedicated'),
      deprecated: optionSet(line, '--deprecated'),
      families: optionValues(line, '--family'),
      classes: optionValues(line, '--class'),
    });
    if (r.diagnostics.some((d) => d.severity === 'error')) return finish(ctx, r, undefined);
    const format = outputOf(ctx, OUTPUT);
    return finish(
      ctx,
      r,
      format === 'json' ? JSON.stringify({ instancetypes: r.instancetypes }, null, 2) : format === 'csv' ? selectCsv(r.instancetypes) : selectText(r),
    );
  },
};
