"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { Notice } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { Card, RowAction } from "../user-sessions/card-parts.tsx";
import { useConfirmedAction, type TNotice } from "../user-sessions/use-confirmed-action.ts";
import { useProvidersText, type TProvidersText } from "./i18n.ts";

type TBinding = inferRouterOutputs<AppRouter>["console"]["providers"]["userBindings"][number];

function columns(p: TProvidersText, onUnlink: (b: TBinding) => void): TColumn<TBinding>[] {
  return [
    { key: "provider", header: p("user.col.provider"), cell: (b) => <code className="client-id">{`${b.fpType}:${b.fpName}`}</code> },
    { key: "sid", header: p("user.col.sid"), cell: (b) => <code>{b.sid}</code> },
    { key: "userName", header: p("user.col.userName"), cell: (b) => b.userName ?? <span className="muted">—</span> },
    { key: "actions", header: "", className: "cell-actions", cell: (b) => <RowAction label={p("user.unlink")} row={b.sid} onClick={() => onUnlink(b)} /> },
  ];
}

/** The external accounts bound to a user, each with unlink. */
export function UserBindingsCard({ sub }: { sub: string }) {
  const p = useProvidersText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const bindings = useQuery(trpc.console.providers.userBindings.queryOptions({ sub }));
  const [notice, notify] = useState<TNotice>(null);
  const after = () => void queryClient.invalidateQueries(trpc.console.providers.pathFilter());
  const unlink = useConfirmedAction(useMutation(trpc.console.providers.unbind.mutationOptions()), {
    inputOf: (b: TBinding) => ({ sub, fpType: b.fpType as "oidc" | "oauth2", fpName: b.fpName, sid: b.sid }),
    doneText: (b) => p("user.unlinked", { sid: b.sid }),
    goneCode: "federation.binding_not_found",
    goneText: p("user.gone"),
    after,
    notify,
  });
  return (
    <Card id="user-fa-title" title={p("user.title")}>
      {bindings.isPending ? <p className="muted">{p("user.loading")}</p> : null}
      {bindings.isError ? <Notice text={p("user.loadFailed")} error /> : null}
      <Notice text={notice?.text} error={notice?.error} />
      {bindings.data ? (
        bindings.data.length ? (
          <Table caption={p("user.title")} columns={columns(p, unlink.ask)} rows={bindings.data} rowKey={(b) => `${b.fpType}:${b.fpName}:${b.sid}`} />
        ) : (
          <p className="muted">{p("user.none")}</p>
        )
      ) : null}
      <ConfirmDialog
        {...unlink.dialog}
        title={unlink.target ? p("user.unlinkTitle", { sid: unlink.target.sid }) : ""}
        body={p("user.unlinkBody")}
        confirmLabel={p("user.unlink")}
        cancelLabel={p("fp.cancel")}
        danger
      />
    </Card>
  );
}
