import { type ComponentProps, type ReactNode, useId } from 'react';

/** Takes react-hook-form's `register()`; `error` is tied to the input and announced (decision 0018). */
export function Field({ label, hint, error, ...rest }: ComponentProps<'input'> & { label: ReactNode; hint?: ReactNode; error?: string | null }) {
  const id = useId();
  const inputId = rest.id ?? id;
  return (
    <FieldFrame id={inputId} label={label} hint={hint} error={error}>
      <input id={inputId} {...rest} aria-invalid={error ? true : undefined} aria-describedby={describedBy(inputId, hint, error, rest['aria-describedby'])} />
    </FieldFrame>
  );
}

/** The label, hint and error around a control with this `id`; the control sets `describedBy(...)`. */
export function FieldFrame({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <div className="field-hint" id={`${id}-hint`}>
          {hint}
        </div>
      )}
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </div>
  );
}

export const describedBy = (id: string, hint: ReactNode, error: string | null | undefined, own?: string) =>
  [own, hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;

/** A field's own error, under it (for a control that is not a Field: give the control `aria-describedby={id}`). */
export function FieldError({ id, children }: { id?: string; children: ReactNode }) {
  if (!children) return null;
  return (
    <p className="error-text field-error" role="alert" id={id}>
      {children}
    </p>
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
