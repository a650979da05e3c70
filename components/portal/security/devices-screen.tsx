"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { leaveTo, useContextPath } from "../../context-path.tsx";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import type { TColumn } from "../../ui/table.tsx";
import { formatTime } from "../portal-states.tsx";
import { useTRPC, type TPortalOutputs } from "../trpc.ts";
import { useSecurityText, type TSecurityText } from "./i18n.ts";
import { RemovableList } from "./removable-list.tsx";

type TDevice = TPortalOutputs["devices"]["list"][number];

const nameOf = (s: TSecurityText, d: TDevice) => d.name || s("devices.unknownName");

function useDeviceColumns(): (ask: (d: TDevice) => void) => TColumn<TDevice>[] {
  const s = useSecurityText();
  const { lang } = useI18n();
  return (ask) => [
    {
      key: "device",
      header: s("devices.col.device"),
      cell: (d) => (
        <span className="device-cell">
          <strong>{nameOf(s, d)}</strong>
          <span className="muted">{s(`devices.kind.${d.kind}`)}</span>
          {d.current ? <span className="badge badge--on">{s("devices.this")}</span> : null}
        </span>
      ),
    },
    { key: "first", header: s("devices.col.firstSeen"), cell: (d) => formatTime(d.firstSeen, lang) },
    { key: "last", header: s("devices.col.lastSeen"), cell: (d) => formatTime(d.lastSeen, lang) },
    { key: "ip", header: s("devices.col.ip"), cell: (d) => (d.lastIp ? <code>{d.lastIp}</code> : <span className="muted">—</span>) },
    {
      key: "actions",
      header: <span className="ui-visually-hidden">{s("devices.col.actions")}</span>,
      className: "cell-actions",
      cell: (d) => (
        <Button size="sm" variant="danger" onClick={() => ask(d)}>
          {s("devices.signOut")}
          <span className="ui-visually-hidden"> {nameOf(s, d)}</span>
        </Button>
      ),
    },
  ];
}

/**
 * The person's devices and browsers, the one in hand marked, each with "Sign out". Signing out the
 * device in hand ends this portal session too: the page then leaves for the sign-in.
 */
export function DevicesScreen() {
  const s = useSecurityText();
  const contextPath = useContextPath();
  const trpc = useTRPC();
  const devices = useQuery(trpc.portal.devices.list.queryOptions());
  const signOut = useMutation(trpc.portal.devices.signOut.mutationOptions());
  return (
    <RemovableList
      texts={{
        title: s("devices.title"),
        intro: s("devices.intro"),
        loadFailed: s("devices.loadFailed"),
        empty: s("devices.empty"),
        caption: s("devices.caption"),
        confirmTitle: (d) => s("devices.confirmTitle", { name: nameOf(s, d) }),
        confirmBody: (d) => (d.current ? `${s("devices.confirmBody")} ${s("devices.confirmBodyThis")}` : s("devices.confirmBody")),
        confirmLabel: s("devices.signOut"),
        removed: (d) => s("devices.signedOut", { name: nameOf(s, d) }),
        gone: s("devices.gone"),
      }}
      query={devices}
      columns={useDeviceColumns()}
      rowKey={(d) => d.id}
      remove={(d) => signOut.mutateAsync({ id: d.id })}
      notFoundCode="device.not_found"
      afterRemove={(d) => {
        if (d.current) leaveTo(contextPath, "/account");
        return d.current;
      }}
    />
  );
}
