"use client";
import Link from "next/link";
import { isBuiltinClient } from "@/server/auth/apps";
import { useClientsText } from "./clients/i18n.ts";
import { useCan } from "./viewer.tsx";
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
  const c = useClientsText();
  const configures = useCan("configure");
  const codes = (values: string[]) => (
    <span className="scope-list">
      {values.length ? values.map((s) => <code key={s} className="scope">{s}</code>) : <span className="muted">—</span>}
    </span>
  );
  const columns: TColumn<TConsoleClient>[] = [
    {
      key: "id",
      header: t("clients.col.id"),
      cell: (row) => (
        <Link href={`/console/clients/${encodeURIComponent(row.id)}`} className="user-link">
          <code className="client-id">{row.id}</code>
        </Link>
      ),
    },
    { key: "name", header: t("clients.col.name"), cell: (row) => row.name },
    { key: "kind", header: c("col.kind"), cell: (row) => c(`kind.${row.kind}`) },
    { key: "grants", header: c("col.grants"), cell: (row) => codes(row.grantTypes) },
    { key: "redirects", header: c("col.redirects"), cell: (row) => codes(row.redirectUris) },
    { key: "scopes", header: t("clients.col.scopes"), cell: (row) => codes(row.scopes) },
    { key: "enabled", header: t("clients.col.enabled"), cell: (row) => <Badge on={row.enabled} label={row.enabled ? t("clients.yes") : t("clients.no")} /> },
    {
      key: "actions",
      header: <span className="ui-visually-hidden">{t("clients.col.actions")}</span>,
      className: "cell-actions",
      // The console's and portal's own clients are kept by the server: nothing to act on.
      cell: (row) =>
        isBuiltinClient(row.id) ? (
          <span className="badge badge--off" title={t("clients.builtinHint")}>
            {t("clients.builtin")}
          </span>
        ) : configures ? (
          <div className="row-actions">
            <Button size="sm" variant="ghost" onClick={() => onAction("edit", row)}>
              {t("clients.edit")}
              <RowId id={row.id} />
            </Button>
            {/* A public application has no secret and no REST password to set. */}
            {row.type === "confidential" ? (
              <>
                <Button size="sm" variant="ghost" onClick={() => onAction("rotate", row)}>
                  {t("clients.rotate")}
                  <RowId id={row.id} />
                </Button>
                <Button size="sm" variant="ghost" onClick={() => onAction(row.hasRestPassword ? "removeRest" : "setRest", row)}>
                  {row.hasRestPassword ? t("clients.removeRest") : t("clients.setRest")}
                  <RowId id={row.id} />
                </Button>
              </>
            ) : null}
          </div>
        ) : null,
    },
  ];
  return <Table caption={t("clients.title")} columns={columns} rows={clients} rowKey={(c) => c.id} />;
}
