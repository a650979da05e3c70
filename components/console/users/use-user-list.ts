"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useTRPC } from "../trpc.ts";

export const PAGE_SIZES = [25, 50, 100] as const;
// Bounds what a hand-edited URL can make the page ask for; the server checks each cursor again.
const MAX_TRAIL = 400;
const MAX_CURSOR = 256;

type TListState = { search: string; trail: string[]; size: number };

/** `?q=smith&size=50&after=a&after=b`: the search, the page size and the cursors of every page before this one. */
function urlOf({ search, trail, size }: TListState): string {
  const params = new URLSearchParams();
  if (search) params.set("q", search);
  if (size !== PAGE_SIZES[0]) params.set("size", String(size));
  for (const cursor of trail) params.append("after", cursor);
  const query = params.toString();
  return `/console/users${query ? `?${query}` : ""}`;
}

/**
 * The users list lives in the URL, so a reload or Back shows the same page: the search text and the
 * trail of keyset cursors that led here (the last one is this page's cursor; dropping it is the
 * previous page). Paging pushes a history entry; typing a search replaces it.
 */
export function useUserList() {
  const trpc = useTRPC();
  const router = useRouter();
  const params = useSearchParams();
  const search = (params.get("q") ?? "").trim().slice(0, 100);
  const trail = params
    .getAll("after")
    .filter((c) => c && c.length <= MAX_CURSOR)
    .slice(0, MAX_TRAIL);
  const size = PAGE_SIZES.find((n) => String(n) === params.get("size")) ?? PAGE_SIZES[0];
  const query = useQuery(
    trpc.console.users.list.queryOptions(
      { search: search || undefined, after: trail.at(-1), limit: size },
      // While the next page or search loads, keep showing the previous one instead of flashing empty.
      { placeholderData: keepPreviousData },
    ),
  );
  const go = (next: TListState, how: "push" | "replace") => router[how](urlOf(next), { scroll: false });
  const nextCursor = query.data?.nextCursor ?? null;
  return {
    search,
    query,
    /** Rows on the pages before this one, for "26–50 of 120". */
    offset: trail.length * size,
    size,
    setSearch: (text: string) => go({ search: text, trail: [], size }, "replace"),
    // Another size starts from the first page: the cursors behind counted pages of the old size.
    setSize: (next: number) => go({ search, trail: [], size: next }, "push"),
    next: nextCursor && !query.isPlaceholderData ? () => go({ search, trail: [...trail, nextCursor], size }, "push") : null,
    prev: trail.length ? () => go({ search, trail: trail.slice(0, -1), size }, "push") : null,
  };
}

export type TUserList = ReturnType<typeof useUserList>;
