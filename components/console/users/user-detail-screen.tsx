"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { appCodeOf, isUnauthorized, messageOf } from "../call-errors.ts";
import { BackLink, LoadFailedState, LoadingState, Notice } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { UserSignInState } from "../user-sessions/user-sign-in-state.tsx";
import { UserBindingsCard } from "../providers/user-bindings-card.tsx";
import { useUsersText } from "./i18n.ts";
import type { TUserDetail } from "./types.ts";
import { accountChanged, useUserMutations, type TNotice } from "./use-user-mutations.ts";
import { UserAccountPanel } from "./user-account-panel.tsx";
import { UserAttributesForm } from "./user-attributes-form.tsx";
import { useCan } from "../viewer.tsx";
import { SendRecoveryDialog } from "./send-recovery-dialog.tsx";
import { UserRolesCard } from "./user-roles-card.tsx";
import { SetPasswordDialog } from "./set-password-dialog.tsx";
import { StatusBadge } from "./users-table.tsx";
import "./users.css";

function displayName(user: TUserDetail): string | null {
  const a = user.attributes as Record<string, unknown>;
  const name = [a.given_name, a.middle_name, a.family_name].filter((p) => typeof p === "string" && p).join(" ");
  return name || null;
}

function Loaded({ user, notice, setNotice }: { user: TUserDetail; notice: TNotice; setNotice: (n: TNotice) => void }) {
  const { t } = useI18n();
  const u = useUsersText();
  const { update, setLocked, remove } = useUserMutations(user.sub, setNotice);
  const [deleting, setDeleting] = useState(false);
  const [settingPassword, setSettingPassword] = useState(false);
  const [sendingRecovery, setSendingRecovery] = useState(false);
  const locked = user.attributes.locked === true;
  const name = displayName(user);
  // What the viewer's role lets them change here: the server refuses the rest anyway.
  const [managesUsers, configures] = [useCan("manage_users"), useCan("configure")];
  const canManage = managesUsers && (configures || !user.roles.some((r) => ["admin", "user_manager", "auditor"].includes(r)));
  return (
    <>
      <div className="clients__head">
        <div className="user-heading">
          <h1 className="page-title">{name ?? user.sub}</h1>
          {name ? <code className="client-id">{user.sub}</code> : null}
          <StatusBadge locked={locked} />
        </div>
        <div className="user-actions">
          {canManage ? <Button onClick={() => setSettingPassword(true)}>{u("detail.setPassword")}</Button> : null}
          {canManage ? <Button onClick={() => setSendingRecovery(true)}>{u("detail.sendRecovery")}</Button> : null}
          {user.ownAccount || !canManage ? null : (
            <>
              <Button onClick={() => setLocked.mutate({ instanceId: user.instanceId, locked: !locked })} disabled={setLocked.isPending}>
                {locked ? u("detail.unlock") : u("detail.lock")}
              </Button>
              <Button
                variant="danger"
                onClick={() => {
                  remove.reset();
                  setDeleting(true);
                }}
              >
                {u("detail.delete")}
              </Button>
            </>
          )}
        </div>
      </div>
      {user.ownAccount ? <p className="muted">{u("detail.ownAccount")}</p> : null}
      <Notice text={notice?.text} error={notice?.error} />
      <div className="user-layout">
        <UserAttributesForm key={user.instanceId} user={user} update={update} setNotice={setNotice} />
        <UserAccountPanel user={user} />
      </div>
      <UserRolesCard key={user.instanceId} user={user} />
      <UserSignInState sub={user.sub} />
      <UserBindingsCard sub={user.sub} />
      <SetPasswordDialog
        user={user}
        open={settingPassword}
        onClose={() => setSettingPassword(false)}
        onDone={(mustChange) => {
          setSettingPassword(false);
          setNotice({ text: u(mustChange ? "detail.passwordSetMustChange" : "detail.passwordSet"), error: false });
        }}
      />
      <SendRecoveryDialog
        sub={user.sub}
        open={sendingRecovery}
        onClose={() => setSendingRecovery(false)}
        onDone={(to) => {
          setSendingRecovery(false);
          setNotice({ text: u("detail.recoverySent", { to }), error: false });
        }}
      />
      <ConfirmDialog
        open={deleting && !(remove.error && accountChanged(remove.error))}
        title={u("detail.deleteTitle", { sub: user.sub })}
        body={u("detail.deleteBody")}
        confirmLabel={u("detail.deleteConfirm")}
        cancelLabel={u("detail.cancel")}
        danger
        pending={remove.isPending}
        error={remove.error && !accountChanged(remove.error) ? messageOf(remove.error, t) : undefined}
        onConfirm={() => remove.mutate({ instanceId: user.instanceId })}
        onClose={() => {
          setDeleting(false);
          remove.reset();
        }}
      />
    </>
  );
}

/** One account: its attributes to edit, lock and delete, and what it holds besides. */
export function UserDetailScreen({ sub }: { sub: string }) {
  const u = useUsersText();
  const trpc = useTRPC();
  const user = useQuery(trpc.console.users.get.queryOptions({ sub }, { retry: (n, e) => !isUnauthorized(e) && appCodeOf(e) !== "user.not_found" && n < 2 }));
  const [notice, setNotice] = useState<TNotice>(null);
  let body;
  if (user.isPending) {
    body = <LoadingState label={u("detail.loading")} />;
  } else if (appCodeOf(user.error) === "user.not_found") {
    body = (
      <div className="state">
        <p className="ui-alert ui-alert--error" role="alert">
          {u("detail.notFound", { sub })}
        </p>
      </div>
    );
  } else if (user.isError) {
    body = <LoadFailedState label={u("detail.loadFailed")} error={user.error} retryLabel={u("users.retry")} onRetry={() => void user.refetch()} />;
  } else {
    body = <Loaded user={user.data} notice={notice} setNotice={setNotice} />;
  }
  return (
    <section className="clients">
      <BackLink href="/console/users" label={u("detail.back")} />
      {body}
    </section>
  );
}
