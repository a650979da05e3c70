"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { SelectField, TextField } from "../../ui/field.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { fieldErrorsOf, messageOf } from "../call-errors.ts";
import { RowAction } from "../user-sessions/card-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { useAccountSecurityText, type TAccountSecurityText } from "./i18n.ts";
import type { TAccountSecurity, TNotify } from "./types.ts";

type TRow = { name: string; value: string | number | boolean };
type TKind = "string" | "number" | "boolean";

function columns(a: TAccountSecurityText, onRemove: (name: string) => void): TColumn<TRow>[] {
  return [
    { key: "name", header: a("props.col.name"), cell: (r) => <code>{r.name}</code> },
    { key: "value", header: a("props.col.value"), cell: (r) => <code>{JSON.stringify(r.value)}</code> },
    {
      key: "actions",
      header: <span className="ui-visually-hidden">{a("props.col.actions")}</span>,
      className: "cell-actions",
      cell: (r) => <RowAction label={a("props.remove")} row={r.name} onClick={() => onRemove(r.name)} />,
    },
  ];
}

/** The value typed in the form as the type chosen; undefined when it is no number. */
function typedValue(kind: TKind, text: string): string | number | boolean | undefined {
  if (kind === "boolean") return text === "true";
  if (kind === "string") return text;
  const n = Number(text);
  return text.trim() !== "" && Number.isFinite(n) ? n : undefined;
}

/** The properties: remove one, or add (or change) one with its type. The same checks as POST …/props. */
export function PropsEditor({ sub, data, notify, after }: { sub: string; data: TAccountSecurity; notify: TNotify; after: () => void }) {
  const a = useAccountSecurityText();
  const { t } = useI18n();
  const trpc = useTRPC();
  const change = useMutation(trpc.console.accountSecurity.changeProps.mutationOptions());
  const [name, setName] = useState("");
  const [kind, setKind] = useState<TKind>("string");
  const [text, setText] = useState("");
  const [error, setError] = useState<string>();
  const save = (input: { add?: Record<string, unknown>; remove?: string[] }, reset: () => void) => {
    setError(undefined);
    change
      .mutateAsync({ sub, ...input })
      .then(
        () => {
          reset();
          notify({ text: a("props.saved"), error: false });
        },
        (e: unknown) => {
          const fields = Object.values(fieldErrorsOf(e, t));
          setError(fields.length ? fields.join(" ") : a("failed", { message: messageOf(e, t) }));
        },
      )
      .finally(after);
  };
  const rows = Object.entries(data.props).map(([n, value]) => ({ name: n, value }));
  const submit = () => {
    const value = typedValue(kind, text);
    if (value === undefined) return setError(a("props.notNumber"));
    // Object.fromEntries: a name such as "__proto__" stays an ordinary property.
    save({ add: Object.fromEntries([[name, value]]) }, () => {
      setName("");
      setText("");
    });
  };
  return (
    <div className="account-security__section">
      <h3 className="account-security__label">{a("props.label")}</h3>
      {rows.length ? (
        <Table caption={a("props.label")} columns={columns(a, (n) => save({ remove: [n] }, () => undefined))} rows={rows} rowKey={(r) => r.name} />
      ) : (
        <p className="muted">{a("props.empty")}</p>
      )}
      <form
        className="account-security__inline"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <TextField label={a("props.name")} value={name} required onChange={(e) => setName(e.target.value)} />
        <SelectField label={a("props.type")} value={kind} onChange={(e) => setKind(e.target.value as TKind)}>
          <option value="string">{a("props.type.string")}</option>
          <option value="number">{a("props.type.number")}</option>
          <option value="boolean">{a("props.type.boolean")}</option>
        </SelectField>
        {kind === "boolean" ? (
          <SelectField label={a("props.value")} value={text === "true" ? "true" : "false"} onChange={(e) => setText(e.target.value)}>
            <option value="true">true</option>
            <option value="false">false</option>
          </SelectField>
        ) : (
          <TextField label={a("props.value")} value={text} inputMode={kind === "number" ? "decimal" : undefined} onChange={(e) => setText(e.target.value)} />
        )}
        <Button type="submit" size="sm" disabled={change.isPending}>
          {a("props.add")}
        </Button>
      </form>
      {error ? (
        <p className="ui-alert ui-alert--error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
