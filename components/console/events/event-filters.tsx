"use client";
import { useState, useSyncExternalStore, type FormEvent } from "react";
import { Button } from "../../ui/button.tsx";
import { TextField } from "../../ui/field.tsx";
import type { TEventFilterValues, TFilterField } from "./event-filter-url.ts";
import { EventTypeField } from "./event-type-field.tsx";
import { useEventsText, type TEventsKey } from "./i18n.ts";

// The type picker stands between the client and the address (EventTypeField).
const TEXT_FIELDS: { field: TFilterField; label: TEventsKey }[] = [
  { field: "sub", label: "events.filter.sub" },
  { field: "client", label: "events.filter.client" },
  { field: "ip", label: "events.filter.ip" },
];
const TIME_FIELDS: { field: "from" | "to"; label: TEventsKey }[] = [
  { field: "from", label: "events.filter.from" },
  { field: "to", label: "events.filter.to" },
];

/** An ISO instant as a datetime-local value in the browser's time zone, and back. */
function toLocalInput(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
function fromLocalInput(value: string): string {
  const d = new Date(value);
  return value && !Number.isNaN(d.getTime()) ? d.toISOString() : "";
}

// The server renders without the browser's time zone: the time fields get their values once hydrated.
const noSubscription = () => () => undefined;
const useInBrowser = () => useSyncExternalStore(noSubscription, () => true, () => false);

/** The filter form: edited locally, applied to the URL on submit (Enter in any field). */
export function EventFilters({ filter, onApply }: { filter: TEventFilterValues; onApply: (next: TEventFilterValues) => void }) {
  const e = useEventsText();
  const inBrowser = useInBrowser();
  const [draft, setDraft] = useState<TEventFilterValues>(filter);
  const set = (field: TFilterField, value: string) => setDraft((d) => ({ ...d, [field]: value }));
  const textField = ({ field, label }: (typeof TEXT_FIELDS)[number]) => (
    <TextField key={field} label={e(label)} name={field} value={draft[field] ?? ""} onChange={(ev) => set(field, ev.target.value)} autoComplete="off" spellCheck={false} />
  );
  const submit = (ev: FormEvent) => {
    ev.preventDefault();
    onApply(draft);
  };
  return (
    <form className="event-filters" role="search" aria-label={e("events.filters")} onSubmit={submit}>
      {TEXT_FIELDS.slice(0, 2).map(textField)}
      <EventTypeField
        value={draft.type ?? ""}
        onChange={(text) => set("type", text)}
        onPicked={(type) => {
          setDraft((d) => ({ ...d, type }));
          onApply({ ...draft, type });
        }}
      />
      {TEXT_FIELDS.slice(2).map(textField)}
      {TIME_FIELDS.map(({ field, label }) => (
        <TextField
          key={field}
          label={e(label)}
          type="datetime-local"
          name={field}
          value={inBrowser ? toLocalInput(draft[field]) : ""}
          onChange={(ev) => set(field, fromLocalInput(ev.target.value))}
        />
      ))}
      <div className="event-filters__actions">
        <Button type="submit" variant="primary">
          {e("events.filter.apply")}
        </Button>
        <Button
          onClick={() => {
            setDraft({});
            onApply({});
          }}
        >
          {e("events.filter.clear")}
        </Button>
      </div>
    </form>
  );
}
