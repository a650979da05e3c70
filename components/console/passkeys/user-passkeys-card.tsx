"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { DateTime } from "../../date-time.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { Notice } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { Card, RowAction } from "../user-sessions/card-parts.tsx";
import { useConfirmedAction, type TNotice } from "../user-sessions/use-confirmed-action.ts";
import { usePasskeysConsoleText } from "./i18n.ts";

type TPasskey = inferRouterOutputs<AppRouter>["console"]["passkeys"]["ofUser"][number];

/** A user's passkeys: name, kind, when added and last used; removed by those who manage the account. */
export function UserPasskeysCard({ sub }: { sub: string }) {
  const p = usePasskeysConsoleText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.console.passkeys.ofUser.queryOptions({ sub }));
  const [notice, notify] = useState<TNotice>(null);
  const remove = useConfirmedAction(useMutation(trpc.console.passkeys.remove.mutationOptions()), {
    inputOf: (k: TPasskey) => ({ sub, id: k.id }),
    doneText: (k) => p("passkeys.removed", { name: k.name }),
    goneCode: "passkeys.not_found",
    goneText: p("passkeys.gone"),
    after: () => void queryClient.invalidateQueries(trpc.console.passkeys.ofUser.pathFilter()),
    notify,
  });
  const columns: TColumn<TPasskey>[] = [
    { key: "name", header: p("passkeys.col.name"), cell: (k) => <strong>{k.name}</strong> },
    { key: "authenticator", header: p("passkeys.col.authenticator"), cell: (k) => k.authenticator ?? <span className="muted">{p("passkeys.unknownAuthenticator")}</span> },
    { key: "kind", header: p("passkeys.col.kind"), cell: (k) => (k.synced ? p("passkeys.synced") : p("passkeys.device")) },
    { key: "added", header: p("passkeys.col.added"), cell: (k) => <DateTime value={k.createdAt} /> },
    { key: "used", header: p("passkeys.col.lastUsed"), cell: (k) => (k.lastUsedAt ? <DateTime value={k.lastUsedAt} /> : <span className="muted">{p("passkeys.never")}</span>) },
    { key: "actions", header: "", className: "cell-actions", cell: (k) => <RowAction label={p("passkeys.remove")} row={k.name} onClick={() => remove.ask(k)} /> },
  ];
  return (
    <Card id="user-passkeys-title" title={p("passkeys.title")}>
      {list.isPending ? <p className="muted">{p("passkeys.loading")}</p> : null}
      {list.isError ? <Notice text={p("passkeys.loadFailed")} error /> : null}
      <Notice text={notice?.text} error={notice?.error} />
      {list.data ? list.data.length ? <Table caption={p("passkeys.title")} columns={columns} rows={list.data} rowKey={(k) => k.id} /> : <p className="muted">{p("passkeys.none")}</p> : null}
      <ConfirmDialog
        {...remove.dialog}
        title={remove.target ? p("passkeys.removeTitle", { name: remove.target.name }) : ""}
        body={p("passkeys.removeBody")}
        confirmLabel={p("passkeys.remove")}
        cancelLabel={p("passkeys.cancel")}
        danger
      />
    </Card>
  );
}
