"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useTRPC } from "../trpc.ts";

export const PAGE_SIZE = 25;
// Bounds what a hand-edited URL can make the page ask for; the server checks each value again.
const MAX_TRAIL = 400;
const MAX_VALUE = 256;

type TListState = { profile: string; prefix: string; trail: string[] };

/** `?profile=orgs&prefix=ac&after=a&after=b`: the profile, the id filter and the cursors of every page before this one. */
function urlOf({ profile, prefix, trail }: TListState): string {
  const params = new URLSearchParams();
  if (profile) params.set("profile", profile);
  if (prefix) params.set("prefix", prefix);
  for (const cursor of trail) params.append("after", cursor);
  const query = params.toString();
  return `/console/groups${query ? `?${query}` : ""}`;
}

/**
 * The groups list lives in the URL, as the users list does, so a reload, Back or a link from the
 * profiles page shows the same page. Paging pushes a history entry; typing a filter replaces it.
 */
export function useGroupList() {
  const trpc = useTRPC();
  const router = useRouter();
  const params = useSearchParams();
  const profile = (params.get("profile") ?? "").slice(0, 64);
  const prefix = (params.get("prefix") ?? "").trim().slice(0, 128);
  const trail = params
    .getAll("after")
    .filter((c) => c && c.length <= MAX_VALUE)
    .slice(0, MAX_TRAIL);
  const query = useQuery(
    trpc.console.groups.list.queryOptions({ profile, prefix, after: trail.at(-1), limit: PAGE_SIZE }, { enabled: !!profile, placeholderData: keepPreviousData }),
  );
  const go = (next: TListState, how: "push" | "replace") => router[how](urlOf(next), { scroll: false });
  const nextCursor = query.data?.nextCursor ?? null;
  return {
    profile,
    prefix,
    query,
    setProfile: (name: string) => go({ profile: name, prefix: "", trail: [] }, "push"),
    setPrefix: (text: string) => go({ profile, prefix: text, trail: [] }, "replace"),
    next: nextCursor && !query.isPlaceholderData ? () => go({ profile, prefix, trail: [...trail, nextCursor] }, "push") : null,
    prev: trail.length ? () => go({ profile, prefix, trail: trail.slice(0, -1) }, "push") : null,
  };
}
