"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { eventsHref } from "../events/event-filter-url.ts";
import { EventsTable } from "../events/events-table.tsx";
import { useTRPC } from "../trpc.ts";
import { Card, CardBody } from "./card-parts.tsx";
import { useUserSessionsText } from "./i18n.ts";

const RECENT = 10;

/** The user's latest security events; the events page, filtered to the user, has the rest. */
export function UserEventsCard({ sub }: { sub: string }) {
  const s = useUserSessionsText();
  const trpc = useTRPC();
  const events = useQuery({ ...trpc.console.events.list.queryOptions({ sub, limit: RECENT }), select: (page) => page.items });
  return (
    <Card
      id="user-events-title"
      title={s("recent.title")}
      actions={
        <Link href={eventsHref({ sub })} className="user-card__more">
          {s("recent.all")}
        </Link>
      }
    >
      <CardBody query={events} loading={s("recent.loading")} failed={s("recent.loadFailed")} empty={s("recent.empty")}>
        {(rows) => <EventsTable events={rows} caption={s("recent.title")} showSubject={false} />}
      </CardBody>
    </Card>
  );
}
