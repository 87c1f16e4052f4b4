import type * as z from 'zod';

/** One of a form's checks: the field its message belongs to, and the message when the input fails it (null when it passes). */
export type Check<T> = readonly [field: keyof T & string, problem: (input: T) => string | null];

/**
 * A form's checks in the spec's order, for a schema's `.superRefine()`: the first that fails is
 * the one message, on its field, and the checks after it do not run. A check may read several
 * fields (the phone needs its country, the repeated password the password), which zod's
 * per-field checks cannot order. The API answers that message (`validate()` takes the first
 * issue); the web form shows it (react-hook-form's zodResolver, `web/lib/use-schema-form.ts`).
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
