import { zodResolver } from '@hookform/resolvers/zod';
import { type DefaultValues, type FieldErrors, type FieldValues, type Resolver, useForm } from 'react-hook-form';
import type * as z from 'zod';

/** The first message among a form's errors: the worker's schemas check in the spec's order and answer one. */
export function firstError(errors: FieldErrors): string | null {
  return firstErrorAt(errors)?.message ?? null;
}

function firstErrorAt(errors: FieldErrors, prefix = ''): { path: string; message: string } | null {
  for (const [key, error] of Object.entries(errors)) {
    if (!error) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof error.message === 'string' && error.message) return { path, message: error.message };
    const nested = firstErrorAt(error as FieldErrors, path);
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
 * The screen checks exactly what the API checks, in the spec's order, with the same messages: on
 * submit first, as the spec's forms do, then on every change after a refused submit.
 * `otherProblem()`, called after the fields in the JSX, is the message of a field that shows none of
 * its own (a select without a Field).
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
  const form = useForm<Values, unknown, Input>({ resolver, defaultValues, mode: 'onSubmit', reValidateMode: 'onChange' });
  const first = firstErrorAt(form.formState.errors);
  const shown = new Set<string>();
  const errorFor = (name: string) => {
    shown.add(name);
    return first && (first.path === name || first.path.startsWith(`${name}.`)) ? first.message : null;
  };
  const otherProblem = () => (first && ![...shown].some((n) => first.path === n || first.path.startsWith(`${n}.`)) ? first.message : null);
  return { ...form, problem: first?.message ?? null, errorFor, otherProblem };
}
