"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { DEFAULT_SORT_DIR, DEFAULT_USER_SORT, SORT_DIRS, USER_SORTS, type TSortDir, type TUserSort } from "@/server/users/users-list.shared";
import { useTRPC } from "../trpc.ts";

export const PAGE_SIZES = [25, 50, 100] as const;
// Bounds what a hand-edited URL can make the page ask for; the server checks each cursor again.
const MAX_TRAIL = 400;
const MAX_CURSOR = 4096;

export type TListOrder = { sort: TUserSort; dir: TSortDir };
type TListState = TListOrder & { search: string; trail: string[]; size: number };

/** `?q=smith&sort=email&dir=desc&size=50&after=a&after=b`: the search, the order, the page size and the cursors of every page before this one. */
function urlOf({ search, sort, dir, trail, size }: TListState): string {
  const params = new URLSearchParams();
  if (search) params.set("q", search);
  if (sort !== DEFAULT_USER_SORT) params.set("sort", sort);
  if (dir !== DEFAULT_SORT_DIR) params.set("dir", dir);
  if (size !== PAGE_SIZES[0]) params.set("size", String(size));
  for (const cursor of trail) params.append("after", cursor);
  const query = params.toString();
  return `/console/users${query ? `?${query}` : ""}`;
}

/** One of `allowed`, or the default: an order someone typed into the address is not worth an error page. */
function oneOf<T extends string>(allowed: readonly T[], value: string | null, fallback: T): T {
  return allowed.find((v) => v === value) ?? fallback;
}

/**
 * The users list lives in the URL, so a reload or Back shows the same page: the search text, the
 * order and the trail of keyset cursors that led here (the last one is this page's cursor; dropping
 * it is the previous page). Paging and sorting push a history entry; typing a search replaces it.
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
  const order: TListOrder = { sort: oneOf(USER_SORTS, params.get("sort"), DEFAULT_USER_SORT), dir: oneOf(SORT_DIRS, params.get("dir"), DEFAULT_SORT_DIR) };
  const query = useQuery(
    trpc.console.users.list.queryOptions(
      { search: search || undefined, ...order, after: trail.at(-1), limit: size },
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
    order,
    setSearch: (text: string) => go({ search: text, ...order, trail: [], size }, "replace"),
    // Another size or order starts from the first page: the cursors behind belong to the old one.
    setSize: (next: number) => go({ search, ...order, trail: [], size: next }, "push"),
    setOrder: (next: TListOrder) => go({ search, ...next, trail: [], size }, "push"),
    next: nextCursor && !query.isPlaceholderData ? () => go({ search, ...order, trail: [...trail, nextCursor], size }, "push") : null,
    prev: trail.length ? () => go({ search, ...order, trail: trail.slice(0, -1), size }, "push") : null,
  };
}

export type TUserList = ReturnType<typeof useUserList>;
