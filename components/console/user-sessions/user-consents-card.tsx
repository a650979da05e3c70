"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { UnixTime } from "../events/unix-time.tsx";
import { Notice } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { Card, CardBody, RowAction } from "./card-parts.tsx";
import { useUserSessionsText, type TUserSessionsText } from "./i18n.ts";
import { useConfirmedAction, type TNotice } from "./use-confirmed-action.ts";

type TConsent = inferRouterOutputs<AppRouter>["console"]["sessions"]["consents"][number];

function columns(s: TUserSessionsText, onRevoke: (c: TConsent) => void): TColumn<TConsent>[] {
  return [
    { key: "client", header: s("consents.col.client"), cell: (c) => <code className="client-id">{c.client_id}</code> },
    {
      key: "scopes",
      header: s("consents.col.scopes"),
      cell: (c) => (
        <span className="scope-list">
          {c.scopes.map((scope) => (
            <code key={scope} className="scope">
              {scope}
            </code>
          ))}
        </span>
      ),
    },
    { key: "updated", header: s("consents.col.updated"), cell: (c) => <UnixTime seconds={c.updated} /> },
    {
      key: "actions",
      header: <span className="ui-visually-hidden">{s("consents.col.actions")}</span>,
      className: "cell-actions",
      cell: (c) => <RowAction label={s("consents.revoke")} row={c.client_id} onClick={() => onRevoke(c)} />,
    },
  ];
}

/** The applications the user allowed access; revoking one ends that application's refresh tokens. */
export function UserConsentsCard({ sub }: { sub: string }) {
  const s = useUserSessionsText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const consents = useQuery(trpc.console.sessions.consents.queryOptions({ sub }));
  const [notice, notify] = useState<TNotice>(null);
  const revoke = useConfirmedAction(useMutation(trpc.console.sessions.revokeConsent.mutationOptions()), {
    inputOf: (c: TConsent) => ({ sub, id: c.id }),
    doneText: (c) => s("consents.revoked", { client: c.client_id }),
    goneCode: "consent.not_found",
    goneText: s("consents.gone"),
    notify,
    after: () => {
      void queryClient.invalidateQueries(trpc.console.sessions.consents.pathFilter());
      void queryClient.invalidateQueries(trpc.console.events.list.pathFilter());
    },
  });
  return (
    <Card id="user-consents-title" title={s("consents.title")}>
      <Notice text={notice?.text} error={notice?.error} />
      <CardBody query={consents} loading={s("consents.loading")} failed={s("consents.loadFailed")} empty={s("consents.empty")}>
        {(rows) => <Table caption={s("consents.title")} columns={columns(s, revoke.ask)} rows={rows} rowKey={(c) => c.id} />}
      </CardBody>
      <ConfirmDialog
        {...revoke.dialog}
        title={revoke.target ? s("consents.revokeTitle", { client: revoke.target.client_id }) : ""}
        body={s("consents.revokeBody")}
        confirmLabel={s("consents.revoke")}
        cancelLabel={s("common.cancel")}
        danger
      />
    </Card>
  );
}
