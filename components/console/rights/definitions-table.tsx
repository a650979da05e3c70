"use client";
import type { TRightDefinition } from "@/server/rights/rights.schemas";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { useRightsText, type TRightsText } from "./i18n.ts";

export type TDefinitionAction = "edit" | "delete";

function Kinds({ kinds, r }: { kinds: TRightDefinition["objectKinds"]; r: TRightsText }) {
  return (
    <span className="scope-list">
      {kinds.map((k) => (
        <span key={k} className="badge badge--off">
          {r(`kind.${k}`)}
        </span>
      ))}
    </span>
  );
}

type TProps = { defs: TRightDefinition[]; onAction: (action: TDefinitionAction, def: TRightDefinition) => void };

/** Every definition with its usage; the description in the console's language, else the other one. */
export function DefinitionsTable({ defs, onAction }: TProps) {
  const { lang } = useI18n();
  const r = useRightsText();
  const other = lang === "ru" ? "en" : "ru";
  const columns: TColumn<TRightDefinition>[] = [
    {
      key: "name",
      header: r("defs.col.name"),
      cell: (d) => (
        <span className="attr-name">
          <code className="client-id">{d.name}</code>
          {d.builtin ? <span className="badge badge--off">{r("defs.builtin")}</span> : null}
        </span>
      ),
    },
    { key: "description", header: r("defs.col.description"), cell: (d) => d.description[lang] || d.description[other] || <span className="muted">—</span> },
    { key: "subjects", header: r("defs.col.subjects"), cell: (d) => <Kinds kinds={d.subjectKinds} r={r} /> },
    { key: "objects", header: r("defs.col.objects"), cell: (d) => <Kinds kinds={d.objectKinds} r={r} /> },
    { key: "grants", header: r("defs.col.grants"), className: "cell-number", cell: (d) => d.grants },
    {
      key: "actions",
      header: <span className="ui-visually-hidden">{r("defs.col.actions")}</span>,
      className: "cell-actions",
      cell: (d) => (
        <div className="row-actions">
          <Button size="sm" variant="ghost" onClick={() => onAction("edit", d)}>
            {r("defs.edit")}
            <span className="ui-visually-hidden"> {d.name}</span>
          </Button>
          {d.builtin ? null : (
            <Button size="sm" variant="ghost" onClick={() => onAction("delete", d)}>
              {r("defs.delete")}
              <span className="ui-visually-hidden"> {d.name}</span>
            </Button>
          )}
        </div>
      ),
    },
  ];
  return <Table caption={r("defs.title")} columns={columns} rows={defs} rowKey={(d) => d.name} />;
}
