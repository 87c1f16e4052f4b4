import type * as z from 'zod';

/** One of a form's checks: the field its message belongs to, and the message when the input fails it (null when it passes). */
export type Check<T> = readonly [field: keyof T & string, problem: (input: T) => string | null];

/**
 * Only the first failing check answers, on its field: a check may read several fields (the phone
 * needs its country), which zod's per-field checks cannot order.
 */
export function inOrder<T>(checks: readonly Check<T>[]) {
  return (input: T, ctx: Pick<z.RefinementCtx, 'addIssue'>) => {
    for (const [field, problem] of checks) {
      const message = problem(input);
      if (message) {
        ctx.addIssue({ code: 'custom', message, path: [field] });
        return;
      }
    }
  };
}
