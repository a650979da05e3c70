"use client";
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { AUTH_APPS } from "@/server/auth/apps";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { SelectField } from "../../ui/field.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { formatTime, PortalLoadFailed, PortalLoading } from "../portal-states.tsx";
import { attributeLabel, useProfileText } from "../profile/i18n.ts";
import { useTRPC, type TPortalOutputs } from "../trpc.ts";
import { eventWords, KNOWN_EVENT_TYPES } from "./event-words.ts";
import { useSecurityText } from "./i18n.ts";

type TEvent = TPortalOutputs["events"]["list"]["events"][number];

const PAGE_SIZE = 25;

/** What an event's params add in words: the attributes it changed, the application it concerns, an administrator's hand. */
function Details({ e }: { e: TEvent }) {
  const s = useSecurityText();
  const u = useProfileText();
  const attrs = Array.isArray(e.params.attributes) ? (e.params.attributes as unknown[]).filter((a): a is string => typeof a === "string") : [];
  const parts = [
    attrs.map((a) => attributeLabel(u, a)).join(", "),
    typeof e.params.client === "string" ? e.params.client : "",
    e.params.by === "console" ? s("events.console") : "",
  ].filter(Boolean);
  return parts.length ? <>{parts.join(" · ")}</> : <span className="muted">—</span>;
}

function useEventColumns(): TColumn<TEvent>[] {
  const s = useSecurityText();
  const { lang } = useI18n();
  const dash = <span className="muted">—</span>;
  return [
    { key: "time", header: s("events.col.time"), className: "portal-events-time", cell: (e) => formatTime(e.time, lang) },
    { key: "type", header: s("events.col.type"), cell: (e) => <span title={e.type}>{eventWords(e.type, lang)}</span> },
    { key: "client", header: s("events.col.client"), cell: (e) => (e.clientId === AUTH_APPS.portal.clientId ? s("events.portal") : e.clientId ?? dash) },
    { key: "ip", header: s("events.col.ip"), cell: (e) => (e.ip ? <code>{e.ip}</code> : dash) },
    { key: "device", header: s("events.col.device"), cell: (e) => e.device ?? dash },
    { key: "details", header: s("events.col.details"), cell: (e) => <Details e={e} /> },
  ];
}

/** The person's own security events, newest first, filtered by type, a page more at a time. */
export function EventsScreen() {
  const s = useSecurityText();
  const { lang } = useI18n();
  const trpc = useTRPC();
  const [type, setType] = useState("");
  const events = useInfiniteQuery(
    trpc.portal.events.list.infiniteQueryOptions(
      { types: type ? [type] : undefined, limit: PAGE_SIZE },
      // While another type loads, the list shown stays instead of flashing empty.
      { getNextPageParam: (last) => last.nextCursor ?? undefined, placeholderData: keepPreviousData },
    ),
  );
  const columns = useEventColumns();
  const rows = events.data?.pages.flatMap((p) => p.events) ?? [];

  return (
    <>
      <h1 className="page-title">{s("events.title")}</h1>
      <p className="portal-intro">{s("events.intro")}</p>
      <div className="portal-toolbar">
        <SelectField label={s("events.filter")} value={type} onChange={(e) => setType(e.target.value)}>
          <option value="">{s("events.filterAll")}</option>
          {KNOWN_EVENT_TYPES.map((t) => (
            <option key={t} value={t}>
              {eventWords(t, lang)}
            </option>
          ))}
        </SelectField>
        {events.isFetching && !events.isFetchingNextPage ? <span className="spinner" aria-hidden="true" /> : null}
      </div>
      {events.isPending ? (
        <PortalLoading />
      ) : events.isError ? (
        <PortalLoadFailed label={s("events.loadFailed")} error={events.error} onRetry={() => events.refetch()} />
      ) : rows.length === 0 ? (
        <p className="state">{type ? s("events.emptyFiltered") : s("events.empty")}</p>
      ) : (
        <>
          <Table caption={s("events.caption")} columns={columns} rows={rows} rowKey={(e) => e.id} />
          {events.hasNextPage ? (
            <Button className="portal-more" onClick={() => events.fetchNextPage()} disabled={events.isFetchingNextPage} aria-busy={events.isFetchingNextPage}>
              {events.isFetchingNextPage ? s("events.loadingMore") : s("events.more")}
            </Button>
          ) : null}
        </>
      )}
    </>
  );
}
