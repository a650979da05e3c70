"use client";
import type { ReactNode } from "react";
import { useI18n } from "../i18n-provider.tsx";
import { Button } from "../ui/button.tsx";
import { TextField } from "../ui/field.tsx";
import { messageOf } from "./call-errors.ts";

/** A list or page still loading: announced politely, with a spinner. */
export function LoadingState({ label }: { label: ReactNode }) {
  return (
    <div className="state state--loading" role="status">
      <span className="spinner" aria-hidden="true" /> {label}
    </div>
  );
}

type TFailedProps = { label: ReactNode; error: unknown; retryLabel: ReactNode; onRetry: () => void };

/** A load that failed: what failed, why in general terms, and a way to try again. */
export function LoadFailedState({ label, error, retryLabel, onRetry }: TFailedProps) {
  const { t } = useI18n();
  return (
    <div className="state">
      <p className="ui-alert ui-alert--error" role="alert">
        {label} {messageOf(error, t)}
      </p>
      <Button onClick={onRetry}>{retryLabel}</Button>
    </div>
  );
}

/** The outcome of the last action on a page: an error is an alert, anything else a polite status. */
export function Notice({ text, error = false }: { text: ReactNode; error?: boolean }) {
  if (!text) return null;
  return (
    <p className={`ui-alert ${error ? "ui-alert--error" : "ui-alert--info"}`} role={error ? "alert" : "status"}>
      {text}
    </p>
  );
}

type TSearchProps = { label: string; placeholder: string; value: string; onChange: (text: string) => void; busy: boolean };

/** A list's search box; a spinner beside it while a new result is on its way. */
export function SearchBar({ label, placeholder, value, onChange, busy }: TSearchProps) {
  return (
    <div className="clients__toolbar" role="search">
      <TextField
        label={label}
        type="search"
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="clients__search"
        autoComplete="off"
      />
      {busy ? <span className="spinner" aria-hidden="true" /> : null}
    </div>
  );
}
