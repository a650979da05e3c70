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

/** Label above, control, then hint and error: the frame every text control shares. */
function LabelledFrame({ id, label, error, hint, className, children }: TFieldFrame & { id: string; className?: string; children: ReactNode }) {
  return (
    <div className={`ui-field ${className ?? ""}`}>
      <label htmlFor={id} className="ui-field__label">
        {label}
      </label>
      {children}
      <Messages id={id} error={error} hint={hint} />
    </div>
  );
}

function controlProps(id: string, error?: string, hint?: ReactNode) {
  return { id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy(id, error, hint) };
}

/** A labelled input; the label is a real <label for>, so assistive tools (and tests) find it by name. */
export function TextField({ label, error, hint, className, ...input }: TFieldFrame & ComponentProps<"input">) {
  const id = useId();
  return (
    <LabelledFrame id={id} label={label} error={error} hint={hint} className={className}>
      <input className="ui-input" {...controlProps(id, error, hint)} {...input} />
    </LabelledFrame>
  );
}

export function TextAreaField({ label, error, hint, className, ...area }: TFieldFrame & ComponentProps<"textarea">) {
  const id = useId();
  return (
    <LabelledFrame id={id} label={label} error={error} hint={hint} className={className}>
      <textarea className="ui-input ui-input--area" {...controlProps(id, error, hint)} {...area} />
    </LabelledFrame>
  );
}

export function SelectField({ label, error, hint, className, children, ...select }: TFieldFrame & ComponentProps<"select">) {
  const id = useId();
  return (
    <LabelledFrame id={id} label={label} error={error} hint={hint} className={className}>
      <select className="ui-input" {...controlProps(id, error, hint)} {...select}>
        {children}
      </select>
    </LabelledFrame>
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
