"use client";

type TSortState = "ascending" | "descending" | "none";

/**
 * The button inside a sortable column's <th>: its name is the column's, so a screen reader reads
 * "E-mail, button" and the header's aria-sort adds the state; `hint` says what pressing it does
 * (shown on hover). The arrow is decoration: aria-sort already says the direction.
 */
export function SortHeader({ label, state, hint, onSort }: { label: string; state: TSortState; hint: string; onSort: () => void }) {
  return (
    <button type="button" className="ui-sort" data-state={state} title={hint} onClick={onSort}>
      {label}
      <span className="ui-sort__arrow" aria-hidden="true">
        {state === "ascending" ? "▲" : state === "descending" ? "▼" : "↕"}
      </span>
    </button>
  );
}
