"use client";
import type { ReactNode } from "react";
import { Button } from "../ui/button.tsx";

type TProps<R> = {
  legend: string;
  hint: string;
  error?: string;
  rules: R[];
  onChange: (rules: R[]) => void;
  /** What "Add" appends. */
  empty: R;
  /** The grid a row's fields are laid out in. */
  rowClassName: string;
  /** A row's name ("Attribute 2"): the group's label, and what its Remove button says it removes. */
  rowLabel: (n: number) => string;
  addLabel: string;
  removeLabel: string;
  /** A row's fields; `set` changes this row only. */
  fields: (rule: R, set: (patch: Partial<R>) => void) => ReactNode;
};

/** A list of rules edited as rows (attribute mappings): each row a labelled group with its fields and Remove, then Add. */
export function RuleRows<R>({ legend, hint, error, rules, onChange, empty, rowClassName, rowLabel, addLabel, removeLabel, fields }: TProps<R>) {
  const set = (i: number, patch: Partial<R>) => onChange(rules.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="attr-fieldset">
      <legend className="ui-field__label">{legend}</legend>
      <p className="ui-field__hint">{hint}</p>
      {error ? (
        <p className="ui-field__error" role="alert">
          {error}
        </p>
      ) : null}
      {rules.map((rule, i) => (
        <div key={i} className={rowClassName} role="group" aria-label={rowLabel(i + 1)}>
          {fields(rule, (patch) => set(i, patch))}
          <Button size="sm" variant="ghost" onClick={() => onChange(rules.filter((_, j) => j !== i))}>
            {removeLabel}
            <span className="ui-visually-hidden"> {rowLabel(i + 1)}</span>
          </Button>
        </div>
      ))}
      <div>
        <Button size="sm" onClick={() => onChange([...rules, empty])}>
          {addLabel}
        </Button>
      </div>
    </fieldset>
  );
}
