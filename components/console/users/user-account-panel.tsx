"use client";
import { DateTime } from "../../date-time.tsx";
import { attributeLabel, useUsersText } from "./i18n.ts";
import type { TUserDetail } from "./types.ts";

function PendingChanges({ pending }: { pending: TUserDetail["pending"] }) {
  const u = useUsersText();
  if (pending.length === 0) return <p className="muted">{u("detail.noPending")}</p>;
  return (
    <ul className="user-pending">
      {pending.map((p) => (
        <li key={p.state}>
          <strong>{u("detail.pendingItem", { attr: attributeLabel(u, p.attr), value: p.value })}</strong>
          {p.from ? <span className="muted"> {u("detail.pendingFrom", { from: p.from })}</span> : null}
          <br />
          <span className="muted">{u("detail.pendingExp", { minutes: String(Math.ceil(p.exp / 60)), attempts: String(p.attempts_left) })}</span>
        </li>
      ))}
    </ul>
  );
}

/** What the administrator reads but does not edit here: roles, dates, contact changes waiting for a code. */
export function UserAccountPanel({ user }: { user: TUserDetail }) {
  const u = useUsersText();
  return (
    <aside className="user-panel" aria-labelledby="user-panel-title">
      <h2 id="user-panel-title" className="user-section__title">
        {u("detail.about")}
      </h2>
      <dl className="user-facts">
        <dt>{u("detail.roles")}</dt>
        <dd>
          {user.roles.length ? (
            <span className="scope-list">
              {user.roles.map((r) => (
                <code key={r} className="scope">
                  {r}
                </code>
              ))}
            </span>
          ) : (
            <span className="muted">{u("detail.noRoles")}</span>
          )}
        </dd>
        <dt>{u("detail.createdAt")}</dt>
        <dd>
          <DateTime value={user.createdAt} />
        </dd>
        <dt>{u("detail.updatedAt")}</dt>
        <dd>
          <DateTime value={user.updatedAt} />
        </dd>
      </dl>
      <h3 className="user-section__subtitle">{u("detail.pending")}</h3>
      <PendingChanges pending={user.pending} />
    </aside>
  );
}
