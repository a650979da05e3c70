"use client";
import Link from "next/link";
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

type TListStatesProps = {
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  /** Rows loaded; none shows `empty`. */
  count: number;
  loading: ReactNode;
  failed: ReactNode;
  retry: ReactNode;
  empty: ReactNode;
  children: ReactNode;
};

/** A list in whichever state it is: loading, failed (with a retry), empty, or its rows. */
export function ListStates({ query, count, loading, failed, retry, empty, children }: TListStatesProps) {
  if (query.isPending) return <LoadingState label={loading} />;
  if (query.isError) return <LoadFailedState label={failed} error={query.error} retryLabel={retry} onRetry={() => void query.refetch()} />;
  if (count === 0) {
    return (
      <div className="state state--empty">
        <p className="state__title">{empty}</p>
      </div>
    );
  }
  return <>{children}</>;
}

type TQueryStatesProps<T> = {
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined };
  loading: ReactNode;
  children: (data: T) => ReactNode;
};

/** A settings page's one read: loading, its error as an alert, or what it shows of the data. */
export function QueryStates<T>({ query, loading, children }: TQueryStatesProps<T>) {
  const { t } = useI18n();
  if (query.isPending) return <LoadingState label={loading} />;
  if (query.isError) {
    return (
      <p className="ui-alert ui-alert--error" role="alert">
        {messageOf(query.error, t)}
      </p>
    );
  }
  return <>{children(query.data as T)}</>;
}

/** The way back from a detail page to its list (styled in users/users.css, which every detail page loads). */
export function BackLink({ href, label }: { href: string; label: string }) {
  return (
    <Link href={href} className="user-back">
      <span aria-hidden="true">←</span> {label}
    </Link>
  );
}
