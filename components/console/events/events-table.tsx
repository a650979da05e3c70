"use client";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import { describeUserAgent } from "@/server/sessions/user-agent";
import { eventTitle } from "../../event-titles.ts";
import { useI18n } from "../../i18n-provider.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { PersonLink } from "../users/person-link.tsx";
import { useEventsText } from "./i18n.ts";
import { UnixTime } from "./unix-time.tsx";

export type TConsoleEvent = inferRouterOutputs<AppRouter>["console"]["events"]["list"]["items"][number];

const none = <span className="muted">—</span>;
// Failures and replays stand out in a long list.
const ALERT_TYPE = /failed|reused|denied/;

function Params({ params }: { params: Record<string, unknown> }) {
  const entries = Object.entries(params);
  if (entries.length === 0) return none;
  return (
    <span className="event-params">
      {entries.map(([k, v]) => (
        <span key={k}>
          <span className="muted">{k}:</span> {typeof v === "string" ? v : JSON.stringify(v)}
        </span>
      ))}
    </span>
  );
}

/** Security events, newest first; the user column is left out where all events are one user's. */
export function EventsTable({ events, caption, showSubject = true }: { events: TConsoleEvent[]; caption: string; showSubject?: boolean }) {
  const e = useEventsText();
  const { lang } = useI18n();
  const columns: TColumn<TConsoleEvent>[] = [
    { key: "time", header: e("events.col.time"), cell: (r) => <UnixTime seconds={r.time} />, className: "event-time" },
    {
      key: "type",
      header: e("events.col.type"),
      cell: (r) => (
        <span className={`event-type${ALERT_TYPE.test(r.type) ? " event-type--alert" : ""}`}>
          {eventTitle(r.type, lang)}
          <br />
          <code className="muted">{r.type}</code>
        </span>
      ),
    },
    ...(showSubject
      ? [
          {
            key: "subject",
            header: e("events.col.subject"),
            cell: (r: TConsoleEvent) => (r.subject ? <PersonLink sub={r.subject} person={r.person} /> : none),
          },
        ]
      : []),
    { key: "client", header: e("events.col.client"), cell: (r) => (r.clientId ? <code className="client-id">{r.clientId}</code> : none) },
    { key: "ip", header: e("events.col.ip"), cell: (r) => r.ip ?? none, className: "event-ip" },
    {
      key: "ua",
      header: e("events.col.userAgent"),
      cell: (r) =>
        r.userAgent ? (
          <span className="event-ua" title={r.userAgent}>
            {describeUserAgent(r.userAgent).name}
          </span>
        ) : (
          none
        ),
    },
    { key: "params", header: e("events.col.params"), cell: (r) => <Params params={r.params} /> },
  ];
  return <Table caption={caption} columns={columns} rows={events} rowKey={(r) => r.id} />;
}
