import type { JSX } from 'preact';

type FieldProps = JSX.InputHTMLAttributes<HTMLInputElement> & {
  id: string;
  label: string;
  error?: string;
  hint?: string;
};

/** A labelled input with its error shown right under it and announced with it (aria-describedby). */
export function Field({ id, label, error, hint, ...input }: FieldProps) {
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} name={id} aria-invalid={error ? 'true' : undefined} aria-describedby={described} {...input} />
      {hint && <p class="hint" id={`${id}-hint`}>{hint}</p>}
      {error && <p class="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}

/** A form-level error, announced as soon as it appears. */
export function FormError({ message }: { message?: string }) {
  return message ? <p class="form-error" role="alert">{message}</p> : null;
}
