import { type ComponentProps, type ReactNode, useId } from 'react';

/** Takes react-hook-form's `register()`; `error` is tied to the input and announced (decision 0018). */
export function Field({ label, hint, error, ...rest }: ComponentProps<'input'> & { label: ReactNode; hint?: ReactNode; error?: string | null }) {
  const id = useId();
  const inputId = rest.id ?? id;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const describedBy = [rest['aria-describedby'], hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <input id={inputId} {...rest} aria-invalid={error ? true : undefined} aria-describedby={describedBy} />
      {hint && (
        <div className="field-hint" id={hintId}>
          {hint}
        </div>
      )}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}

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
