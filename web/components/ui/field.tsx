import { type ComponentProps, type ReactNode, useId } from 'react';

/** A labelled input; the label is tied to the input for screen readers and tests. Takes react-hook-form's `register()` (its ref included). */
export function Field({ label, hint, ...rest }: ComponentProps<'input'> & { label: ReactNode; hint?: ReactNode }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={rest.id ?? id}>{label}</label>
      <input id={rest.id ?? id} {...rest} />
      {hint && <div className="field-hint">{hint}</div>}
    </div>
  );
}

export function ErrorText({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <p className="error-text" role="alert">
      {children}
    </p>
  );
}
