"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { SelectField } from "../../ui/field.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { LoadFailedState, LoadingState, Notice, SearchBar } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { useDebounced } from "../use-debounced.ts";
import { GroupAttrForm } from "./group-attr-form.tsx";
import { groupsMessageOf } from "./group-errors.ts";
import { groupHref } from "./group-links.ts";
import { useGroupsText } from "./i18n.ts";
import type { TGroupRow, TProfileView } from "./types.ts";
import { useGroupList } from "./use-group-list.ts";
import "../attributes/attributes.css";
import "../rights/rights.css";
import "../users/users.css";
import "./groups.css";

const FILTER_DELAY_MS = 300;

/** A group's attributes in a cell, in the schema's order. */
function AttrSummary({ group, profile }: { group: TGroupRow; profile: TProfileView }) {
  const set = profile.attributes.filter((a) => group.attrs[a.name] !== undefined);
  if (!set.length) return <span className="muted">—</span>;
  return (
    <dl className="group-attrs">
      {set.map((a) => (
        <div key={a.name}>
          <dt>{a.name}</dt>
          <dd>{[group.attrs[a.name]].flat().map(String).join(", ")}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The id filter: the URL follows typing (replacing the history entry), reset when the profile changes. */
function PrefixFilter({ value, onChange, busy }: { value: string; onChange: (text: string) => void; busy: boolean }) {
  const g = useGroupsText();
  const [text, setText] = useState(value);
  const typed = useDebounced(text.trim(), FILTER_DELAY_MS);
  useEffect(() => {
    if (typed !== value) onChange(typed);
    // Only typing sends: the URL changing underneath (Back) must not send the old text again.
  }, [typed]);
  return <SearchBar label={g("groups.filter")} placeholder={g("groups.filterHint")} value={text} onChange={setText} busy={busy} />;
}

type TDialog = { kind: "create" } | { kind: "delete"; id: string } | null;

/** A profile's groups: filter by id prefix, keyset pages, create in a form generated from the schema, delete. */
function ProfileGroups({ profile, onNotice }: { profile: TProfileView; onNotice: (text: string | null) => void }) {
  const { t } = useI18n();
  const g = useGroupsText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useGroupList();
  const [dialog, setDialog] = useState<TDialog>(null);
  const remove = useMutation(trpc.console.groups.remove.mutationOptions());
  const refresh = () => Promise.all([queryClient.invalidateQueries(trpc.console.groups.list.pathFilter()), queryClient.invalidateQueries(trpc.console.groups.profiles.pathFilter())]);
  const { query } = list;

  const columns: TColumn<TGroupRow>[] = [
    {
      key: "id",
      header: g("groups.col.id"),
      cell: (row) => (
        <Link href={groupHref(profile.name, row.id)} className="user-link">
          {row.id}
        </Link>
      ),
    },
    { key: "attrs", header: g("groups.col.attributes"), cell: (row) => <AttrSummary group={row} profile={profile} /> },
    { key: "members", header: g("groups.col.members"), className: "cell-number", cell: (row) => row.members },
    {
      key: "actions",
      header: <span className="ui-visually-hidden">{g("groups.col.actions")}</span>,
      className: "cell-actions",
      cell: (row) => (
        <Button size="sm" variant="ghost" onClick={() => (onNotice(null), remove.reset(), setDialog({ kind: "delete", id: row.id }))}>
          {g("groups.delete")}
          <span className="ui-visually-hidden"> {row.id}</span>
        </Button>
      ),
    },
  ];

  const body = query.isPending ? (
    <LoadingState label={g("groups.loading")} />
  ) : query.isError ? (
    <LoadFailedState label={g("groups.loadFailed")} error={query.error} retryLabel={g("common.retry")} onRetry={() => void query.refetch()} />
  ) : query.data.items.length === 0 && !list.prev ? (
    <div className="state state--empty">
      <p className="state__title">{g("groups.empty")}</p>
    </div>
  ) : (
    <>
      <Table caption={g("groups.title")} columns={columns} rows={query.data.items} rowKey={(row) => row.id} />
      <nav className="users__pager" aria-label={g("groups.title")}>
        <Button onClick={() => list.prev?.()} disabled={!list.prev}>
          {g("groups.prev")}
        </Button>
        <Button onClick={() => list.next?.()} disabled={!list.next}>
          {g("groups.next")}
        </Button>
      </nav>
    </>
  );
  const deleting = dialog?.kind === "delete" ? dialog.id : "";

  return (
    <>
      <div className="groups-toolbar">
        <PrefixFilter key={profile.name} value={list.prefix} onChange={list.setPrefix} busy={query.isFetching && !query.isPending} />
        <Button variant="primary" onClick={() => (onNotice(null), setDialog({ kind: "create" }))}>
          {g("groups.new")}
        </Button>
      </div>
      {body}
      <Dialog open={dialog?.kind === "create"} title={g("gform.createTitle", { profile: profile.name })} onClose={() => setDialog(null)} wide>
        <GroupAttrForm
          key={profile.name}
          profile={profile}
          onCancel={() => setDialog(null)}
          onSaved={async (id) => {
            await refresh();
            setDialog(null);
            onNotice(g("groups.created", { id }));
          }}
        />
      </Dialog>
      <ConfirmDialog
        open={dialog?.kind === "delete"}
        title={g("groups.deleteTitle", { id: deleting })}
        body={g("groups.deleteBody")}
        confirmLabel={g("groups.delete")}
        cancelLabel={g("common.cancel")}
        danger
        pending={remove.isPending}
        error={remove.error ? groupsMessageOf(remove.error, g, t) : undefined}
        onConfirm={() =>
          remove.mutate(
            { profile: profile.name, id: deleting },
            {
              onSuccess: async () => {
                await refresh();
                setDialog(null);
                onNotice(g("groups.deleted", { id: deleting }));
              },
            },
          )
        }
        onClose={() => setDialog(null)}
      />
    </>
  );
}

/** The groups page: pick a profile (kept in the URL), then its groups. */
export function GroupsScreen() {
  const g = useGroupsText();
  const trpc = useTRPC();
  const list = useGroupList();
  const profiles = useQuery(trpc.console.groups.profiles.queryOptions());
  const [notice, setNotice] = useState<string | null>(null);
  const profile = profiles.data?.find((p) => p.name === list.profile);

  return (
    <section className="clients">
      <div className="clients__head">
        <h1 className="page-title">{g("groups.title")}</h1>
      </div>
      <p className="muted attr-intro">{g("groups.intro")}</p>
      {profiles.isPending ? (
        <LoadingState label={g("profiles.loading")} />
      ) : profiles.isError ? (
        <LoadFailedState label={g("profiles.loadFailed")} error={profiles.error} retryLabel={g("common.retry")} onRetry={() => void profiles.refetch()} />
      ) : profiles.data.length === 0 ? (
        <p className="ui-alert ui-alert--info">{g("groups.noProfiles")}</p>
      ) : (
        <>
          <SelectField
            label={g("groups.profile")}
            value={profile?.name ?? ""}
            onChange={(e) => {
              setNotice(null);
              list.setProfile(e.target.value);
            }}
            className="rights-chooser__type"
          >
            <option value="" disabled>
              {g("groups.pickProfile")}
            </option>
            {profiles.data.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name}
              </option>
            ))}
          </SelectField>
          <Notice text={notice} />
          {profile ? <ProfileGroups key={profile.name} profile={profile} onNotice={setNotice} /> : null}
        </>
      )}
    </section>
  );
}
