"use client";
import { useEffect, useId, useState, type ComponentProps, type KeyboardEvent } from "react";
import { TextField } from "./field.tsx";

export type TComboOption = { value: string; label: string; detail?: string };

type TProps = Omit<ComponentProps<"input">, "value" | "onChange" | "role" | "label"> & {
  label: string;
  /** The list's own name (not the field's, so that the field alone answers to its label). */
  listLabel: string;
  hint?: string;
  value: string;
  onChange: (text: string) => void;
  /** The suggestions for the current text (the caller filters them). */
  options: TComboOption[];
  onPick: (option: TComboOption) => void;
};

/**
 * A text field with a list of suggestions, after the WAI-ARIA combobox pattern (list autocomplete,
 * no automatic selection): typing opens the list, Down and Up move through it (the input keeps the
 * focus and names the option in aria-activedescendant), Enter picks, Escape closes. Enter with no
 * option active is the form's, so free text still submits. Radix has no combobox; a popover is not
 * needed for a list that hangs under its field.
 */
export function Combobox({ label, listLabel, hint, value, onChange, options, onPick, onKeyDown, onBlur, ...input }: TProps) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const shown = open && options.length > 0;
  const optionId = (i: number) => `${listId}-${i}`;

  // The active option stays in view as Down and Up move through a list longer than its box.
  useEffect(() => {
    if (shown && active >= 0) document.getElementById(`${listId}-${active}`)?.scrollIntoView({ block: "nearest" });
  }, [shown, active, listId]);

  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const pick = (option: TComboOption) => {
    close();
    onPick(option);
  };
  const keyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    onKeyDown?.(e);
    const n = options.length;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (!shown) {
        setOpen(true);
        setActive(e.key === "ArrowDown" ? 0 : n - 1);
      } else setActive((i) => (e.key === "ArrowDown" ? (i + 1) % n : (i <= 0 ? n : i) - 1));
    } else if (e.key === "Enter" && shown && active >= 0 && active < n) {
      e.preventDefault();
      pick(options[active]!);
    } else if (e.key === "Escape" && shown) {
      e.preventDefault();
      close();
    }
  };
  return (
    <div className="ui-combobox">
      <TextField
        {...input}
        label={label}
        hint={hint}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown && active >= 0 ? optionId(active) : undefined}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={keyDown}
        onBlur={(e) => {
          close();
          onBlur?.(e);
        }}
      />
      <ul id={listId} role="listbox" aria-label={listLabel} className="ui-combobox__list" hidden={!shown}>
        {options.map((o, i) => (
          <li
            key={o.value}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            className="ui-combobox__option"
            // Keep the focus in the input: a click must not blur it (which would close the list first).
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(o)}
          >
            <span>{o.label}</span>
            {o.detail ? <code className="ui-combobox__detail">{o.detail}</code> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
