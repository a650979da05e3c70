"use client";
import { keepPreviousData, useQueries } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../trpc.ts";
import { filterQuery, type TEventFilterValues } from "./event-filter-url.ts";
import type { TConsoleEvent } from "./events-table.tsx";

const PAGE_SIZE = 50;

/**
 * Keyset pages of the trail, newest first: the first page, then one per "Load more", each asked for
 * with the cursor of the page before. Another filter starts again at the first page.
 */
export function useEventPages(filter: TEventFilterValues) {
  const trpc = useTRPC();
  const key = filterQuery(filter);
  const [paging, setPaging] = useState<{ key: string; cursors: string[] }>({ key, cursors: [] });
  const cursors = paging.key === key ? paging.cursors : [];
  const pages = useQueries({
    queries: [undefined, ...cursors].map((after) =>
      trpc.console.events.list.queryOptions({ ...filter, after, limit: PAGE_SIZE }, { placeholderData: after ? undefined : keepPreviousData }),
    ),
  });
  const events: TConsoleEvent[] = pages.flatMap((p) => p.data?.items ?? []);
  const first = pages[0]!;
  const nextCursor = pages.at(-1)!.data?.nextCursor ?? null;
  return {
    events,
    first,
    loadingMore: pages.length > 1 && pages.at(-1)!.isPending,
    loadMore: nextCursor ? () => setPaging({ key, cursors: [...cursors, nextCursor] }) : null,
  };
}

export type TEventPages = ReturnType<typeof useEventPages>;
