"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState, type ReactNode } from "react";
import { Button } from "../../ui/button.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { ListStates } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { Card, RowAction } from "../user-sessions/card-parts.tsx";
import { PersonLink } from "../users/person-link.tsx";
import { useGroupsText } from "./i18n.ts";
import type { TGroupDetail } from "./types.ts";

const PAGE_SIZE = 25;

type TProps = { group: TGroupDetail; add: ReactNode; onRemove: (sub: string) => void };

/** The members in keyset pages (previous and next), with the form that adds one above them. */
export function MembersList({ group, add, onRemove }: TProps) {
  const g = useGroupsText();
  const trpc = useTRPC();
  const titleId = useId();
  // The cursors of the pages before this one: the last is this page's.
  const [trail, setTrail] = useState<string[]>([]);
  const members = useQuery(
    trpc.console.groups.members.queryOptions({ profile: group.profile, id: group.id, after: trail.at(-1), limit: PAGE_SIZE }, { placeholderData: keepPreviousData }),
  );
  const rows = members.data?.items ?? [];
  const next = members.data?.nextCursor;
  const columns: TColumn<string>[] = [
    {
      key: "sub",
      header: g("group.col.member"),
      cell: (sub) => <PersonLink sub={sub} person={members.data?.people[sub] ?? null} />,
    },
    { key: "actions", header: <span className="ui-visually-hidden">{g("group.col.actions")}</span>, className: "cell-actions", cell: (sub) => <RowAction label={g("group.remove")} row={members.data?.people[sub]?.name ?? sub} onClick={() => onRemove(sub)} /> },
  ];
  const title = g("group.members", { count: String(members.data?.total ?? group.memberCount) });
  return (
    <Card id={titleId} title={title}>
      {add}
      <ListStates query={members} count={rows.length + trail.length} loading={g("group.membersLoading")} failed={g("group.membersFailed")} retry={g("common.retry")} empty={g("group.noMembers")}>
        <Table caption={title} columns={columns} rows={rows} rowKey={(sub) => sub} />
        {trail.length || next ? (
          <nav className="users__pager" aria-label={title}>
            <Button onClick={() => setTrail((t) => t.slice(0, -1))} disabled={!trail.length}>
              {g("groups.prev")}
            </Button>
            <Button onClick={() => next && setTrail((t) => [...t, next])} disabled={!next || members.isPlaceholderData}>
              {g("groups.next")}
            </Button>
          </nav>
        ) : null}
      </ListStates>
    </Card>
  );
}
