"use client";
import { useId, useState } from "react";
import { useClientsText } from "./i18n.ts";

type TProps = {
  legend: string;
  /** The scopes the service knows for this field. */
  known: readonly string[];
  value: string[];
  onChange: (next: string[]) => void;
  error?: string;
  hint?: string;
  /** Form field name, for the error the server places on it. */
  name: string;
};

/**
 * Scopes picked from the ones the service knows, rather than typed: a typo would otherwise be saved
 * and fail only when the application asks for a token. A scope the client holds that is not known
 * (kept from an older import) stays listed, marked, so it can be taken off.
 */
export function ScopePicker({ legend, known, value, onChange, error, hint, name }: TProps) {
  const c = useClientsText();
  const id = useId();
  const [filter, setFilter] = useState("");
  const options = [...known, ...value.filter((s) => !known.includes(s))];
  const needle = filter.trim().toLowerCase();
  const shown = needle ? options.filter((s) => s.toLowerCase().includes(needle)) : options;
  const toggle = (scope: string, on: boolean) => onChange(on ? [...value, scope] : value.filter((s) => s !== scope));
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;

  return (
    <fieldset className="scope-picker" aria-describedby={described} aria-invalid={error ? true : undefined} data-field={name}>
      <legend className="ui-field__label">
        {legend} <span className="muted">· {c("scopes.selected", { n: String(value.length) })}</span>
      </legend>
      {hint ? (
        <p id={`${id}-hint`} className="ui-field__hint">
          {hint}
        </p>
      ) : null}
      <input
        className="ui-input scope-picker__filter"
        type="search"
        aria-label={c("scopes.filter", { legend })}
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        spellCheck={false}
        autoComplete="off"
      />
      <ul className="scope-picker__list">
        {shown.map((scope) => (
          <li key={scope}>
            <label className="scope-picker__option">
              <input type="checkbox" className="ui-check" checked={value.includes(scope)} onChange={(e) => toggle(scope, e.target.checked)} />
              <code>{scope}</code>
              {known.includes(scope) ? null : <span className="badge badge--off">{c("scopes.unknown")}</span>}
            </label>
          </li>
        ))}
      </ul>
      {shown.length === 0 ? <p className="muted">{c("scopes.none")}</p> : null}
      {error ? (
        <p id={`${id}-error`} className="ui-field__error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
