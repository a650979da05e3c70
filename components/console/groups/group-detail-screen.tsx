"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { FormAlert } from "../../ui/form-alert.tsx";
import { LoadFailedState, LoadingState, Notice } from "../list-parts.tsx";
import { browseHref } from "../rights/parties.ts";
import { PartyPicker, type TPicked } from "../rights/party-picker.tsx";
import { useTRPC } from "../trpc.ts";
import { Card } from "../user-sessions/card-parts.tsx";
import { GroupAttrForm } from "./group-attr-form.tsx";
import { groupsMessageOf } from "./group-errors.ts";
import { groupsHref } from "./group-links.ts";
import { groupTitleOf } from "./group-title.ts";
import { useGroupsText } from "./i18n.ts";
import type { TGroupDetail, TProfileView } from "./types.ts";
import { MembersList } from "./members-list.tsx";
import "../attributes/attributes.css";
import "../rights/rights.css";
import "../users/users.css";
import "../user-sessions/user-sessions.css";
import "./groups.css";

/**
 * Adds an account in one step: a click on a match adds it. Matches are found as the rights browser
 * finds users (a part of a name, or a whole sub), without the group's current members.
 */
function AddMember({ group, onAdded }: { group: TGroupDetail; onAdded: (sub: string) => Promise<void> }) {
  const { t } = useI18n();
  const g = useGroupsText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const add = useMutation(trpc.console.groups.addMember.mutationOptions());
  const pick = (picked: TPicked | null) => {
    if (!picked) return;
    add.mutate(
      { profile: group.profile, id: group.id, sub: picked.id },
      {
        onSuccess: async () => {
          await onAdded(picked.id);
          // The one added is a member now: the matches are read again without it.
          await queryClient.invalidateQueries({ queryKey: trpc.console.rights.findParties.queryKey() });
        },
      },
    );
  };
  const alert = add.error ? groupsMessageOf(add.error, g, t) : null;
  return (
    <section className="group-add-member" aria-busy={add.isPending} aria-label={g("group.addMember")}>
      <FormAlert text={alert} />
      <PartyPicker
        type="user"
        value={null}
        notInGroup={group.id}
        onChange={pick}
        disabled={add.isPending}
        actionLabel={(p) => g("group.addParty", { party: p.label ? `${p.label} (${p.id})` : p.id })}
      />
    </section>
  );
}

/** The group's attributes in the schema's order, with the form that edits them. */
function AttributesCard({ group, profile, onSaved, onReload }: { group: TGroupDetail; profile: TProfileView; onSaved: () => Promise<void>; onReload: () => Promise<unknown> }) {
  const g = useGroupsText();
  const titleId = useId();
  const [editing, setEditing] = useState(false);
  return (
    <Card
      id={titleId}
      title={g("group.attributes")}
      actions={
        <Button size="sm" onClick={() => setEditing(true)}>
          {g("groups.edit")}
        </Button>
      }
    >
      {profile.attributes.length ? (
        <dl className="group-attrs group-attrs--detail">
          {profile.attributes.map((a) => (
            <div key={a.name}>
              <dt>{a.name}</dt>
              <dd>{group.attrs[a.name] === undefined ? <span className="muted">—</span> : [group.attrs[a.name]].flat().map(String).join(", ")}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted">{g("gform.noAttrs")}</p>
      )}
      <Dialog open={editing} title={g("gform.editTitle", { id: group.id })} onClose={() => setEditing(false)} wide>
        {/* Keyed by the version read: a reload after a stale edit rebuilds the form from the current values. */}
        <GroupAttrForm
          key={group.instanceId}
          profile={profile}
          group={group}
          onCancel={() => setEditing(false)}
          onReload={() => void onReload()}
          onSaved={async () => {
            await onSaved();
            setEditing(false);
          }}
        />
      </Dialog>
    </Card>
  );
}

/** One group: its attributes (edited under its instanceId), its members (added, removed, paged) and a way to its rights. */
export function GroupDetailScreen({ profile: profileName, id }: { profile: string; id: string }) {
  const g = useGroupsText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const group = useQuery(trpc.console.groups.get.queryOptions({ profile: profileName, id }, { retry: false }));
  const profiles = useQuery(trpc.console.groups.profiles.queryOptions());
  const [notice, setNotice] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const { t } = useI18n();
  const remove = useMutation(trpc.console.groups.removeMember.mutationOptions());
  const refresh = () => Promise.all([queryClient.invalidateQueries(trpc.console.groups.get.pathFilter()), queryClient.invalidateQueries(trpc.console.groups.members.pathFilter())]);
  const profile = profiles.data?.find((p) => p.name === profileName);

  // The group is called by its own title attribute when it has one; the id stays beside it.
  const title = group.data ? groupTitleOf(group.data.attrs) : undefined;
  const head = (
    <div className="clients__head">
      <div>
        <h1 className="page-title">{title ?? g("group.title", { id })}</h1>
        {title ? <p className="muted">{g("group.title", { id })}</p> : null}
      </div>
      <Link href={groupsHref(profileName)} className="user-link">
        {g("group.back", { profile: profileName })}
      </Link>
    </div>
  );
  if (group.isPending || profiles.isPending) return <section className="clients">{head}<LoadingState label={g("group.loading")} /></section>;
  const failed = group.error ?? profiles.error;
  if (failed || !group.data || !profile) {
    return (
      <section className="clients">
        {head}
        <LoadFailedState label={g("group.loadFailed")} error={failed} retryLabel={g("common.retry")} onRetry={() => void Promise.all([group.refetch(), profiles.refetch()])} />
      </section>
    );
  }

  return (
    <section className="clients">
      {head}
      <p>
        <Link href={browseHref({ type: "grps", id, ext: profileName })} className="user-link">
          {g("group.rights")}
        </Link>
      </p>
      <Notice text={notice} />
      <div className="group-detail">
        <AttributesCard
          group={group.data}
          profile={profile}
          onReload={() => group.refetch()}
          onSaved={async () => {
            await refresh();
            setNotice(g("groups.saved", { id }));
          }}
        />
        <MembersList
          group={group.data}
          onRemove={(sub) => (setNotice(null), remove.reset(), setRemoving(sub))}
          add={
            <AddMember
              group={group.data}
              onAdded={async (sub) => {
                await refresh();
                setNotice(g("group.added", { sub }));
              }}
            />
          }
        />
      </div>
      <ConfirmDialog
        open={!!removing}
        title={g("group.removeTitle", { sub: removing ?? "", id })}
        body={g("group.removeBody")}
        confirmLabel={g("group.remove")}
        cancelLabel={g("common.cancel")}
        danger
        pending={remove.isPending}
        error={remove.error ? groupsMessageOf(remove.error, g, t) : undefined}
        onConfirm={() =>
          removing &&
          remove.mutate(
            { profile: profileName, id, sub: removing },
            {
              onSuccess: async () => {
                await refresh();
                setNotice(g("group.removed", { sub: removing }));
                setRemoving(null);
              },
            },
          )
        }
        onClose={() => setRemoving(null)}
      />
    </section>
  );
}
