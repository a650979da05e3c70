"use client";
import { keepPreviousData, useQueries } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { useTRPC } from "../trpc.ts";

/** A message as the console receives it (dates arrive as ISO strings). */
export type TConsoleMessage = inferRouterOutputs<AppRouter>["console"]["outbox"]["list"]["items"][number];
export type TStatusFilter = TConsoleMessage["status"] | undefined;

const PAGE_SIZE = 25;

/**
 * Keyset pages of the outbox, newest first: the first page, then one per "Load more", each asked
 * for with the cursor of the page before. A new status filter starts again at the first page.
 */
export function useOutboxPages(status: TStatusFilter) {
  const trpc = useTRPC();
  const [paging, setPaging] = useState<{ status: TStatusFilter; cursors: string[] }>({ status, cursors: [] });
  const cursors = paging.status === status ? paging.cursors : [];
  const pages = useQueries({
    queries: [undefined, ...cursors].map((after) =>
      trpc.console.outbox.list.queryOptions({ status, after, limit: PAGE_SIZE }, { placeholderData: after ? undefined : keepPreviousData }),
    ),
  });
  // A resend moves nothing between pages, but a Map keeps each message once whatever happens.
  const byId = new Map<string, TConsoleMessage>();
  for (const page of pages) for (const m of page.data?.items ?? []) byId.set(m.id, m);
  const first = pages[0]!;
  const nextCursor = pages.at(-1)!.data?.nextCursor ?? null;
  return {
    messages: [...byId.values()],
    first,
    loadingMore: pages.length > 1 && pages.at(-1)!.isPending,
    loadMore: nextCursor ? () => setPaging({ status, cursors: [...cursors, nextCursor] }) : null,
  };
}

export type TOutboxPages = ReturnType<typeof useOutboxPages>;
