"use client";
import { keepPreviousData, useQueries } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC, type TConsoleClient } from "./trpc.ts";

const PAGE_SIZE = 25;

/**
 * Keyset pages: the first page, then one page per "Load more", each asked for with the last id of
 * the page before. The cursors belong to one search; a new search starts again at the first page.
 */
export function useClientPages(search: string) {
  const trpc = useTRPC();
  const [paging, setPaging] = useState<{ search: string; cursors: string[] }>({ search: "", cursors: [] });
  const cursors = paging.search === search ? paging.cursors : [];
  const pages = useQueries({
    queries: [undefined, ...cursors].map((after) =>
      trpc.console.clients.list.queryOptions(
        { search: search || undefined, after, limit: PAGE_SIZE },
        // While a new search loads, keep showing the previous result instead of flashing empty.
        { placeholderData: after ? undefined : keepPreviousData },
      ),
    ),
  });
  // After an insert a page boundary can shift; a Map keeps each client once.
  const byId = new Map<string, TConsoleClient>();
  for (const page of pages) for (const c of page.data?.items ?? []) byId.set(c.id, c);
  const first = pages[0]!;
  const last = pages.at(-1)!;
  const nextCursor = last.data?.nextCursor ?? null;
  return {
    clients: [...byId.values()],
    first,
    loadingMore: pages.length > 1 && last.isPending,
    loadMore: nextCursor ? () => setPaging({ search, cursors: [...cursors, nextCursor] }) : null,
    restart: () => setPaging({ search, cursors: [] }),
  };
}

export type TClientPages = ReturnType<typeof useClientPages>;
