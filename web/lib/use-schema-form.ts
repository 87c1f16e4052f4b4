import { zodResolver } from '@hookform/resolvers/zod';
import { type DefaultValues, type FieldErrors, type FieldValues, type Resolver, useForm } from 'react-hook-form';
import type * as z from 'zod';

/** The first message among a form's errors: the worker's schemas check in the spec's order and answer one. */
export function firstError(errors: FieldErrors): string | null {
  for (const error of Object.values(errors)) {
    if (!error) continue;
    if (typeof error.message === 'string' && error.message) return error.message;
    const nested = firstError(error as FieldErrors);
    if (nested) return nested;
  }
  return null;
}

/** The first failing check's message for values checked outside a form (a controlled search panel), or null. */
export function firstProblem(schema: z.ZodType, values: unknown): string | null {
  const result = schema.safeParse(values);
  return result.success ? null : (result.error.issues[0]?.message ?? null);
}

/**
 * A form checked by the worker's own zod schema (react-hook-form with zodResolver): the screen
 * checks exactly what the API checks, in the spec's order, with the same messages, and `problem`
 * is the first failing one. Checked on submit only, as the spec's forms are; `handleSubmit` hands
 * over the values as typed (the API normalises them itself). `toInput` maps the form's values to
 * the API's body where they differ (the filter modal).
 */
export function useSchemaForm<Values extends FieldValues, Input = Values>(
  schema: z.ZodType,
  defaultValues: DefaultValues<Values>,
  toInput?: (values: Values) => Input,
) {
  const check = zodResolver(schema as z.ZodType<unknown, FieldValues>, undefined, { raw: true }) as unknown as Resolver<FieldValues>;
  const resolver: Resolver<Values, unknown, Input> = async (values, context, options) => {
    const input = (toInput ? toInput(values) : values) as FieldValues;
    const result = await check(input, context, options as never);
    return (Object.keys(result.errors).length ? { values: {}, errors: result.errors } : { values: input, errors: {} }) as never;
  };
  const form = useForm<Values, unknown, Input>({ resolver, defaultValues, mode: 'onSubmit', reValidateMode: 'onSubmit' });
  return { ...form, problem: firstError(form.formState.errors) };
}
