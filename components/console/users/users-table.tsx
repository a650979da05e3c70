"use client";
import Link from "next/link";
import { Table, type TColumn } from "../../ui/table.tsx";
import { useUsersText, type TUsersText } from "./i18n.ts";
import type { TUserRow } from "./types.ts";

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

export function UsersTable({ users }: { users: TUserRow[] }) {
  const u = useUsersText();
  const columns: TColumn<TUserRow>[] = [
    {
      key: "sub",
      header: u("users.col.sub"),
      cell: (r) => (
        <Link href={userHref(r.sub)} className="user-link">
          {r.sub}
        </Link>
      ),
    },
    { key: "login", header: u("users.col.login"), cell: (r) => (r.login ? <code>{r.login}</code> : <span className="muted">—</span>) },
    { key: "name", header: u("users.col.name"), cell: (r) => [r.familyName, r.givenName].filter(Boolean).join(" ") || <span className="muted">—</span> },
    { key: "email", header: u("users.col.email"), cell: (r) => <Contact value={r.email} confirmed={r.emailConfirmed} u={u} /> },
    { key: "phone", header: u("users.col.phone"), cell: (r) => <Contact value={r.phone} confirmed={r.phoneConfirmed} u={u} /> },
    { key: "status", header: u("users.col.status"), cell: (r) => <StatusBadge locked={r.locked} /> },
    {
      key: "roles",
      header: u("users.col.roles"),
      cell: (r) => (r.roles.length ? <span className="scope-list">{r.roles.map((role) => <code key={role} className="scope">{role}</code>)}</span> : <span className="muted">—</span>),
    },
  ];
  return <Table caption={u("users.title")} columns={columns} rows={users} rowKey={(r) => r.sub} />;
}
