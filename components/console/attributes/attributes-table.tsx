"use client";
import { Button } from "../../ui/button.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import type { TCatalogEntry } from "./attribute-def-form.tsx";
import { useAttributesText } from "./i18n.ts";

export type TAttributeAction = "edit" | "remove";

const FLAGS = ["required", "unique", "unmodifiable", "searchable"] as const;

function validatorsText(v: TCatalogEntry["validators"]): string {
  const parts = [
    v.minLength !== undefined ? `min ${v.minLength}` : "",
    v.maxLength !== undefined ? `max ${v.maxLength}` : "",
    v.format ? `format ${v.format}` : "",
    v.pattern ? `/${v.pattern}/` : "",
  ];
  return parts.filter(Boolean).join(", ");
}

type TProps = { entries: TCatalogEntry[]; onAction: (action: TAttributeAction, entry: TCatalogEntry) => void };

export function AttributesTable({ entries, onAction }: TProps) {
  const a = useAttributesText();
  const none = <span className="muted">—</span>;
  const columns: TColumn<TCatalogEntry>[] = [
    {
      key: "name",
      header: a("attrs.col.name"),
      cell: (e) => (
        <span className="attr-name">
          <code className="client-id">{e.name}</code>
          {e.builtin ? <span className="badge badge--off">{a("attrs.builtin")}</span> : null}
        </span>
      ),
    },
    { key: "type", header: a("attrs.col.type"), cell: (e) => <code className="scope">{e.type}</code> },
    {
      key: "flags",
      header: a("attrs.col.flags"),
      cell: (e) => {
        const on = FLAGS.filter((f) => e[f]);
        return on.length ? <span className="scope-list">{on.map((f) => <span key={f} className="badge badge--on">{a(`attr.${f}`)}</span>)}</span> : none;
      },
    },
    { key: "validators", header: a("attrs.col.validators"), cell: (e) => (validatorsText(e.validators) ? <span className="attr-validators">{validatorsText(e.validators)}</span> : none) },
    { key: "aliases", header: a("attrs.col.aliases"), cell: (e) => (e.aliases.length ? <span className="scope-list">{e.aliases.map((al) => <code key={al} className="scope">{al}</code>)}</span> : none) },
    {
      key: "actions",
      header: <span className="ui-visually-hidden">{a("attrs.col.actions")}</span>,
      className: "cell-actions",
      cell: (e) => (
        <div className="row-actions">
          <Button size="sm" variant="ghost" onClick={() => onAction("edit", e)}>
            {a("attrs.edit")}
            <span className="ui-visually-hidden"> {e.name}</span>
          </Button>
          {e.builtin ? null : (
            <Button size="sm" variant="ghost" onClick={() => onAction("remove", e)}>
              {a("attrs.remove")}
              <span className="ui-visually-hidden"> {e.name}</span>
            </Button>
          )}
        </div>
      ),
    },
  ];
  return <Table caption={a("attrs.title")} columns={columns} rows={entries} rowKey={(e) => e.name} />;
}
