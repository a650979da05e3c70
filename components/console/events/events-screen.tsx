"use client";
import { useRouter } from "next/navigation";
import { Button } from "../../ui/button.tsx";
import { ListStates, Notice } from "../list-parts.tsx";
import { useContextPath } from "../providers.tsx";
import { eventsHref, filterQuery, type TEventFilterValues } from "./event-filter-url.ts";
import { EventFilters } from "./event-filters.tsx";
import { EventsTable } from "./events-table.tsx";
import "./events.css";
import { useEventsText } from "./i18n.ts";
import { useEventPages } from "./use-event-pages.ts";

/** The whole security trail with filters kept in the URL, keyset pages and a CSV export of the same filter. */
export function EventsScreen({ filter, invalid }: { filter: TEventFilterValues; invalid: boolean }) {
  const e = useEventsText();
  const router = useRouter();
  const contextPath = useContextPath();
  const pages = useEventPages(filter);
  const query = filterQuery(filter);
  return (
    <section className="events">
      <div className="clients__head">
        <h1 className="page-title">{e("events.title")}</h1>
        {/* A plain link: the browser downloads the stream itself, authorised by the console's cookie. */}
        <a className="ui-button ui-button--secondary" href={`${contextPath}/console/events/export${query ? `?${query}` : ""}`} download>
          {e("events.export")}
        </a>
      </div>
      <p className="muted events__intro">{e("events.intro")}</p>
      <EventFilters key={query} filter={filter} onApply={(next) => router.push(eventsHref(next))} />
      <Notice text={invalid ? e("events.filter.invalid") : null} error />
      {pages.first.isFetching && !pages.first.isPending ? <span className="spinner" aria-hidden="true" /> : null}
      <ListStates
        query={pages.first}
        count={pages.events.length}
        loading={e("events.loading")}
        failed={e("events.loadFailed")}
        retry={e("events.retry")}
        empty={query ? e("events.emptyFiltered") : e("events.empty")}
      >
        <EventsTable events={pages.events} caption={e("events.title")} />
      </ListStates>
      {pages.loadMore || pages.loadingMore ? (
        <div className="clients__more">
          <Button onClick={() => pages.loadMore?.()} disabled={pages.loadingMore}>
            {pages.loadingMore ? e("events.loading") : e("events.loadMore")}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
