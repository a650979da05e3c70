"use client";
import { isBuiltinClient } from "@/server/auth/apps";
import { useI18n } from "../i18n-provider.tsx";
import { Button } from "../ui/button.tsx";
import { Table, type TColumn } from "../ui/table.tsx";
import type { TConsoleClient } from "./trpc.ts";

export type TRowAction = "edit" | "rotate" | "setRest" | "removeRest";

function Badge({ on, label }: { on: boolean; label: string }) {
  return <span className={`badge ${on ? "badge--on" : "badge--off"}`}>{label}</span>;
}

/** Names the row in each action's accessible name ("Edit app-1"), as a row of bare "Edit"s cannot be told apart. */
function RowId({ id }: { id: string }) {
  return <span className="ui-visually-hidden"> {id}</span>;
}

export function ClientsTable({ clients, onAction }: { clients: TConsoleClient[]; onAction: (a: TRowAction, c: TConsoleClient) => void }) {
  const { t } = useI18n();
  const columns: TColumn<TConsoleClient>[] = [
    { key: "id", header: t("clients.col.id"), cell: (c) => <code className="client-id">{c.id}</code> },
    { key: "name", header: t("clients.col.name"), cell: (c) => c.name },
    {
      key: "scopes",
      header: t("clients.col.scopes"),
      cell: (c) => (
        <span className="scope-list">
          {c.scopes.length ? c.scopes.map((s) => <code key={s} className="scope">{s}</code>) : <span className="muted">—</span>}
        </span>
      ),
    },
    { key: "enabled", header: t("clients.col.enabled"), cell: (c) => <Badge on={c.enabled} label={c.enabled ? t("clients.yes") : t("clients.no")} /> },
    {
      key: "rest",
      header: t("clients.col.rest"),
      cell: (c) => <Badge on={c.hasRestPassword} label={c.hasRestPassword ? t("clients.yes") : t("clients.no")} />,
    },
    {
      key: "actions",
      header: <span className="ui-visually-hidden">{t("clients.col.actions")}</span>,
      className: "cell-actions",
      // The console's and portal's own clients are kept by the server: nothing to act on.
      cell: (c) =>
        isBuiltinClient(c.id) ? (
          <span className="badge badge--off" title={t("clients.builtinHint")}>
            {t("clients.builtin")}
          </span>
        ) : (
          <div className="row-actions">
            <Button size="sm" variant="ghost" onClick={() => onAction("edit", c)}>
              {t("clients.edit")}
              <RowId id={c.id} />
            </Button>
            <Button size="sm" variant="ghost" onClick={() => onAction("rotate", c)}>
              {t("clients.rotate")}
              <RowId id={c.id} />
            </Button>
            <Button size="sm" variant="ghost" onClick={() => onAction(c.hasRestPassword ? "removeRest" : "setRest", c)}>
              {c.hasRestPassword ? t("clients.removeRest") : t("clients.setRest")}
              <RowId id={c.id} />
            </Button>
          </div>
        ),
    },
  ];
  return <Table caption={t("clients.title")} columns={columns} rows={clients} rowKey={(c) => c.id} />;
}
