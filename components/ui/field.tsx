"use client";
import { useId, type ComponentProps, type ReactNode } from "react";

type TFieldFrame = { label: ReactNode; error?: string; hint?: ReactNode };

function describedBy(id: string, error?: string, hint?: ReactNode): string | undefined {
  const ids = [error ? `${id}-error` : "", hint ? `${id}-hint` : ""].filter(Boolean);
  return ids.length ? ids.join(" ") : undefined;
}

function Messages({ id, error, hint }: { id: string; error?: string; hint?: ReactNode }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="ui-field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="ui-field__error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}

/** A labelled input; the label is a real <label for>, so assistive tools (and tests) find it by name. */
export function TextField({ label, error, hint, className, ...input }: TFieldFrame & ComponentProps<"input">) {
  const id = useId();
  return (
    <div className={`ui-field ${className ?? ""}`}>
      <label htmlFor={id} className="ui-field__label">
        {label}
      </label>
      <input
        id={id}
        className="ui-input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...input}
      />
      <Messages id={id} error={error} hint={hint} />
    </div>
  );
}

export function TextAreaField({ label, error, hint, className, ...area }: TFieldFrame & ComponentProps<"textarea">) {
  const id = useId();
  return (
    <div className={`ui-field ${className ?? ""}`}>
      <label htmlFor={id} className="ui-field__label">
        {label}
      </label>
      <textarea
        id={id}
        className="ui-input ui-input--area"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...area}
      />
      <Messages id={id} error={error} hint={hint} />
    </div>
  );
}

export function CheckboxField({ label, error, className, ...input }: TFieldFrame & ComponentProps<"input">) {
  const id = useId();
  return (
    <div className={`ui-field ui-field--check ${className ?? ""}`}>
      <input id={id} type="checkbox" className="ui-check" aria-describedby={describedBy(id, error)} {...input} />
      <label htmlFor={id} className="ui-field__label">
        {label}
      </label>
      <Messages id={id} error={error} />
    </div>
  );
}
