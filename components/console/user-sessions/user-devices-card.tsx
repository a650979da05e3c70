"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { UnixTime } from "../events/unix-time.tsx";
import { Notice } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { useCan } from "../viewer.tsx";
import { Card, CardBody, RowAction } from "./card-parts.tsx";
import { useUserSessionsText, type TUserSessionsText } from "./i18n.ts";
import { useConfirmedAction, type TNotice } from "./use-confirmed-action.ts";

type TDevice = inferRouterOutputs<AppRouter>["console"]["sessions"]["devices"][number];

const deviceName = (d: TDevice, s: TUserSessionsText) => d.name || s("devices.unnamed");

function columns(s: TUserSessionsText, onSignOut: (d: TDevice) => void): TColumn<TDevice>[] {
  return [
    {
      key: "device",
      header: s("devices.col.device"),
      cell: (d) => (
        <span className="device-name">
          <strong>{deviceName(d, s)}</strong> <span className="muted">{s(`devices.kind.${d.kind}`)}</span>
        </span>
      ),
    },
    { key: "first", header: s("devices.col.firstSeen"), cell: (d) => <UnixTime seconds={d.firstSeen} /> },
    { key: "last", header: s("devices.col.lastSeen"), cell: (d) => <UnixTime seconds={d.lastSeen} /> },
    { key: "ip", header: s("devices.col.lastIp"), cell: (d) => d.lastIp ?? <span className="muted">—</span> },
    {
      key: "actions",
      header: <span className="ui-visually-hidden">{s("devices.col.actions")}</span>,
      className: "cell-actions",
      cell: (d) => <RowAction label={s("devices.signOut")} row={deviceName(d, s)} onClick={() => onSignOut(d)} />,
    },
  ];
}

/** The devices and browsers the user signed in from; sign one out, or end every session at once. */
export function UserDevicesCard({ sub }: { sub: string }) {
  const s = useUserSessionsText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const devices = useQuery(trpc.console.sessions.devices.queryOptions({ sub }));
  const [notice, notify] = useState<TNotice>(null);
  const after = () => {
    void queryClient.invalidateQueries(trpc.console.sessions.pathFilter());
    void queryClient.invalidateQueries(trpc.console.events.list.pathFilter());
  };
  const signOut = useConfirmedAction(useMutation(trpc.console.sessions.signOutDevice.mutationOptions()), {
    inputOf: (d: TDevice) => ({ sub, id: d.id }),
    doneText: (d) => s("devices.signedOut", { name: deviceName(d, s) }),
    goneCode: "device.not_found",
    goneText: s("devices.gone"),
    after,
    notify,
  });
  const endAll = useConfirmedAction(useMutation(trpc.console.sessions.endAll.mutationOptions()), {
    inputOf: (user: string) => ({ sub: user }),
    doneText: () => s("sessions.ended"),
    goneCode: "user.not_found",
    goneText: s("sessions.userGone"),
    after,
    notify,
  });
  const canManage = useCan("manage_users");
  return (
    <Card
      id="user-devices-title"
      title={s("devices.title")}
      actions={
        canManage ? (
          <Button variant="danger" size="sm" onClick={() => endAll.ask(sub)}>
            {s("sessions.endAll")}
          </Button>
        ) : null
      }
    >
      <Notice text={notice?.text} error={notice?.error} />
      <CardBody query={devices} loading={s("devices.loading")} failed={s("devices.loadFailed")} empty={s("devices.empty")}>
        {(rows) => <Table caption={s("devices.title")} columns={columns(s, signOut.ask)} rows={rows} rowKey={(d) => d.id} />}
      </CardBody>
      <ConfirmDialog
        {...signOut.dialog}
        title={signOut.target ? s("devices.signOutTitle", { name: deviceName(signOut.target, s) }) : ""}
        body={s("devices.signOutBody")}
        confirmLabel={s("devices.signOut")}
        cancelLabel={s("common.cancel")}
        danger
      />
      <ConfirmDialog
        {...endAll.dialog}
        title={s("sessions.endAllTitle", { sub })}
        body={s("sessions.endAllBody")}
        confirmLabel={s("sessions.endAll")}
        cancelLabel={s("common.cancel")}
        danger
      />
    </Card>
  );
}
