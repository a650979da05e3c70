"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { appCodeOf } from "../call-errors.ts";
import { ListStates, Notice } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { groupsMessageOf } from "./group-errors.ts";
import { groupsHref } from "./group-links.ts";
import { useGroupsText } from "./i18n.ts";
import { ProfileForm } from "./profile-form.tsx";
import type { TProfileView } from "./types.ts";
import "../attributes/attributes.css";
import "../rights/rights.css";
import "./groups.css";

/** A profile's schema in a cell: each attribute's name, type and flags. */
function Schema({ profile }: { profile: TProfileView }) {
  const g = useGroupsText();
  if (!profile.attributes.length) return <span className="muted">—</span>;
  return (
    <ul className="group-schema">
      {profile.attributes.map((a) => (
        <li key={a.name}>
          <code className="client-id">{a.name}</code> <span className="muted">{g(`type.${a.type}`)}</span>
          {a.required ? <span className="badge badge--off">{g("profiles.required")}</span> : null}
          {a.unique ? <span className="badge badge--off">{g("profiles.unique")}</span> : null}
          {a.maxLength !== undefined ? <span className="muted"> ≤ {a.maxLength}</span> : null}
        </li>
      ))}
    </ul>
  );
}

type TEditing = { profile?: TProfileView } | null;

/** The group profiles: their schemas and how many groups each has; create, edit, and delete one without groups. */
export function ProfilesScreen() {
  const { t, lang } = useI18n();
  const g = useGroupsText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const profiles = useQuery(trpc.console.groups.profiles.queryOptions());
  const [editing, setEditing] = useState<TEditing>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const remove = useMutation(trpc.console.groups.removeProfile.mutationOptions());
  const refresh = () => queryClient.invalidateQueries(trpc.console.groups.profiles.pathFilter());
  const count = profiles.data?.find((p) => p.name === removing)?.groups ?? 0;
  const other = lang === "ru" ? "en" : "ru";

  const confirmDelete = (name: string) =>
    remove.mutate(
      { name },
      {
        onSuccess: async () => {
          await refresh();
          setRemoving(null);
          setNotice(g("profiles.deleted", { name }));
        },
        // Groups created meanwhile: the refreshed count says how many.
        onError: (e) => void (appCodeOf(e) === "group.profile_in_use" && refresh()),
      },
    );
  const closeDelete = () => {
    setRemoving(null);
    remove.reset();
  };

  const columns: TColumn<TProfileView>[] = [
    { key: "name", header: g("profiles.col.name"), cell: (p) => <code className="client-id">{p.name}</code> },
    { key: "description", header: g("profiles.col.description"), cell: (p) => p.description[lang] || p.description[other] || <span className="muted">—</span> },
    { key: "attributes", header: g("profiles.col.attributes"), cell: (p) => <Schema profile={p} /> },
    {
      key: "groups",
      header: g("profiles.col.groups"),
      className: "cell-number",
      cell: (p) => (
        <Link href={groupsHref(p.name)} className="user-link">
          {p.groups}
          <span className="ui-visually-hidden"> {g("profiles.showGroups")} {p.name}</span>
        </Link>
      ),
    },
    {
      key: "actions",
      header: <span className="ui-visually-hidden">{g("profiles.col.actions")}</span>,
      className: "cell-actions",
      cell: (p) => (
        <div className="row-actions">
          <Button size="sm" variant="ghost" onClick={() => (setNotice(null), setEditing({ profile: p }))}>
            {g("profiles.edit")}
            <span className="ui-visually-hidden"> {p.name}</span>
          </Button>
          <Button size="sm" variant="ghost" onClick={() => (setNotice(null), remove.reset(), setRemoving(p.name))}>
            {g("profiles.delete")}
            <span className="ui-visually-hidden"> {p.name}</span>
          </Button>
        </div>
      ),
    },
  ];

  return (
    <section className="clients">
      <div className="clients__head">
        <h1 className="page-title">{g("profiles.title")}</h1>
        <Button variant="primary" onClick={() => (setNotice(null), setEditing({}))}>
          {g("profiles.new")}
        </Button>
      </div>
      <p className="muted attr-intro">{g("profiles.intro")}</p>
      <Notice text={notice} />
      <ListStates query={profiles} count={profiles.data?.length ?? 0} loading={g("profiles.loading")} failed={g("profiles.loadFailed")} retry={g("common.retry")} empty={g("profiles.empty")}>
        <Table caption={g("profiles.title")} columns={columns} rows={profiles.data ?? []} rowKey={(p) => p.name} />
      </ListStates>
      <Dialog open={!!editing} title={editing?.profile ? g("pform.editTitle", { name: editing.profile.name }) : g("pform.createTitle")} onClose={() => setEditing(null)} wide>
        <ProfileForm
          key={editing?.profile?.name ?? "new"}
          profile={editing?.profile}
          onCancel={() => setEditing(null)}
          onSaved={(name) => {
            setEditing(null);
            setNotice(g("profiles.saved", { name }));
          }}
        />
      </Dialog>
      {/* A profile with groups cannot be deleted: say so and how many, with nothing to confirm. */}
      <Dialog open={!!removing && count > 0} title={g("profiles.deleteTitle", { name: removing ?? "" })} onClose={closeDelete} footer={<Button onClick={closeDelete}>{g("common.close")}</Button>}>
        <p role="alert">{g("profiles.inUse", { count: String(count) })}</p>
      </Dialog>
      <ConfirmDialog
        open={!!removing && count === 0}
        title={g("profiles.deleteTitle", { name: removing ?? "" })}
        body={g("profiles.deleteBody")}
        confirmLabel={g("profiles.delete")}
        cancelLabel={g("common.cancel")}
        danger
        pending={remove.isPending}
        error={remove.error ? groupsMessageOf(remove.error, g, t) : undefined}
        onConfirm={() => removing && confirmDelete(removing)}
        onClose={closeDelete}
      />
    </section>
  );
}
