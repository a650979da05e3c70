"use client";
import Link from "next/link";
import type { TUserSort } from "@/server/users/users-list.shared";
import { DateTime } from "../../date-time.tsx";
import { SortHeader } from "../../ui/sort-header.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { useBulkText } from "./bulk-i18n.ts";
import { useUsersText, type TUsersText } from "./i18n.ts";
import type { TUserRow } from "./types.ts";
import type { TListOrder } from "./use-user-list.ts";

export function userHref(sub: string): string {
  return `/console/users/${encodeURIComponent(sub)}`;
}

function Contact({ value, confirmed, u }: { value: string | null; confirmed: boolean | null; u: TUsersText }) {
  if (!value) return <span className="muted">—</span>;
  return (
    <span className="user-contact">
      <span>{value}</span>
      <span className={`badge ${confirmed ? "badge--on" : "badge--off"}`}>{confirmed ? u("users.confirmed") : u("users.unconfirmed")}</span>
    </span>
  );
}

export function StatusBadge({ locked }: { locked: boolean }) {
  const u = useUsersText();
  return <span className={`badge ${locked ? "badge--error" : "badge--on"}`}>{locked ? u("users.locked") : u("users.active")}</span>;
}

/** The rows picked for a bulk action; absent: the table has no checkboxes. */
export type TSelection = { selected: ReadonlySet<string>; toggle: (sub: string, on: boolean) => void; setAll: (on: boolean) => void };

function selectColumn(users: TUserRow[], selection: TSelection, b: ReturnType<typeof useBulkText>): TColumn<TUserRow> {
  const all = users.length > 0 && users.every((r) => selection.selected.has(r.sub));
  return {
    key: "select",
    className: "cell-select",
    header: <input type="checkbox" className="ui-check" aria-label={b("bulk.selectAll")} checked={all} onChange={(e) => selection.setAll(e.target.checked)} />,
    cell: (r) => (
      <input type="checkbox" className="ui-check" aria-label={b("bulk.select", { sub: r.sub })} checked={selection.selected.has(r.sub)} onChange={(e) => selection.toggle(r.sub, e.target.checked)} />
    ),
  };
}

/** The list's order and how to change it; absent: the columns do not sort (a table of a few rows). */
export type TSorting = { order: TListOrder; setOrder: (next: TListOrder) => void };

/**
 * A column that orders the list: its header is a button (the current column flips direction, another
 * starts ascending) and the <th> carries aria-sort.
 */
function sortable(column: TColumn<TUserRow> & { key: TUserSort; header: string }, sorting: TSorting | undefined, u: TUsersText): TColumn<TUserRow> {
  if (!sorting) return column;
  const { sort, dir } = sorting.order;
  const state = sort !== column.key ? "none" : dir === "asc" ? "ascending" : "descending";
  const nextDir = state === "ascending" ? "desc" : "asc";
  return {
    ...column,
    sort: state,
    header: (
      <SortHeader
        label={column.header}
        state={state}
        hint={u(nextDir === "asc" ? "users.sortAsc" : "users.sortDesc")}
        onSort={() => sorting.setOrder({ sort: column.key, dir: nextDir })}
      />
    ),
  };
}

export function UsersTable({ users, selection, sorting }: { users: TUserRow[]; selection?: TSelection; sorting?: TSorting }) {
  const u = useUsersText();
  const b = useBulkText();
  const by = (column: TColumn<TUserRow> & { key: TUserSort; header: string }) => sortable(column, sorting, u);
  const columns: TColumn<TUserRow>[] = [
    ...(selection ? [selectColumn(users, selection, b)] : []),
    by({
      key: "sub",
      header: u("users.col.sub"),
      cell: (r) => (
        <Link href={userHref(r.sub)} className="user-link">
          {r.sub}
        </Link>
      ),
    }),
    by({ key: "login", header: u("users.col.login"), cell: (r) => (r.login ? <code>{r.login}</code> : <span className="muted">—</span>) }),
    by({ key: "name", header: u("users.col.name"), cell: (r) => [r.familyName, r.givenName].filter(Boolean).join(" ") || <span className="muted">—</span> }),
    by({ key: "email", header: u("users.col.email"), cell: (r) => <Contact value={r.email} confirmed={r.emailConfirmed} u={u} /> }),
    { key: "phone", header: u("users.col.phone"), cell: (r) => <Contact value={r.phone} confirmed={r.phoneConfirmed} u={u} /> },
    by({ key: "status", header: u("users.col.status"), cell: (r) => <StatusBadge locked={r.locked} /> }),
    by({ key: "created", header: u("users.col.created"), cell: (r) => <DateTime value={r.createdAt} /> }),
    {
      key: "roles",
      header: u("users.col.roles"),
      cell: (r) => (r.roles.length ? <span className="scope-list">{r.roles.map((role) => <code key={role} className="scope">{role}</code>)}</span> : <span className="muted">—</span>),
    },
  ];
  return <Table caption={u("users.title")} columns={columns} rows={users} rowKey={(r) => r.sub} />;
}
