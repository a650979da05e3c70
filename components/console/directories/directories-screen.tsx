"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { formatDateTime } from "../../date-time.tsx";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { messageOf } from "../call-errors.ts";
import { LoadFailedState, LoadingState, Notice } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { DirectoryForm } from "./directory-form.tsx";
import { DirectoryHistory } from "./directory-history.tsx";
import { fromSettings } from "./directory-values.ts";
import { useDirText, type TDirKey, type TDirText } from "./i18n.ts";

type TDirectory = inferRouterOutputs<AppRouter>["console"]["directories"]["list"][number];
type TRun = NonNullable<TDirectory["lastRun"]>;

const numbers = (r: TRun) => ({ seen: String(r.seen), created: String(r.created), updated: String(r.updated), locked: String(r.locked), deleted: String(r.deleted), failed: String(r.failed) });

function runLine(d: TDirText, r: TRun | null, lang: "en" | "ru"): string {
  if (!r) return d("dir.never");
  const kind = d(`dir.kind.${r.kind}` as TDirKey);
  const when = formatDateTime(r.startedAt, lang);
  if (r.status === "running") return d("dir.run.running", numbers(r));
  if (r.status === "failed") return d("dir.run.failed", { kind, when, error: r.error ?? "" });
  return d("dir.run.done", { kind, when, ...numbers(r) });
}

function modeOf(d: TDirText, x: TDirectory): string {
  if (!x.enabled) return d("dir.off");
  if (x.mode === "on_demand") return d("dir.mode.on_demand");
  return x.syncIntervalS ? d("dir.mode.synchronised", { minutes: String(Math.round(x.syncIntervalS / 60)) }) : d("dir.mode.manual");
}

/** One directory's saved settings, loaded, in the form. */
function EditDirectory({ id, onSaved, onCancel }: { id: string; onSaved: (name: string) => void; onCancel: () => void }) {
  const d = useDirText();
  const trpc = useTRPC();
  const settings = useQuery(trpc.console.directories.get.queryOptions({ id }, { staleTime: 0, gcTime: 0 }));
  if (settings.isPending) return <LoadingState label={d("dir.loading")} />;
  if (settings.isError) return <LoadFailedState label={d("dir.loadFailed")} error={settings.error} retryLabel={d("dir.retry")} onRetry={() => void settings.refetch()} />;
  return <DirectoryForm initial={fromSettings(settings.data)} onSaved={onSaved} onCancel={onCancel} />;
}

/** A row's buttons: synchronising (a synchronised, enabled directory), editing and deleting. */
function RowActions({ x, d, onSync, onHistory, onEdit, onRemove }: { x: TDirectory; d: TDirText; onSync: (full: boolean) => void; onHistory: () => void; onEdit: () => void; onRemove: () => void }) {
  const running = x.lastRun?.status === "running";
  const named = (label: string) => (
    <>
      {label}
      <span className="ui-visually-hidden"> {x.name}</span>
    </>
  );
  return (
    <>
      {x.mode === "synchronised" && x.enabled ? (
        <>
          <Button size="sm" onClick={() => onSync(false)} disabled={running}>
            {named(d("dir.sync"))}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => onSync(true)} disabled={running}>
            {named(d("dir.syncFull"))}
          </Button>
          <Button size="sm" variant="ghost" onClick={onHistory}>
            {named(d("dir.history"))}
          </Button>
        </>
      ) : null}
      <Button size="sm" variant="ghost" onClick={onEdit}>
        {named(d("dir.edit"))}
      </Button>
      <Button size="sm" variant="ghost" onClick={onRemove} disabled={running}>
        {named(d("dir.remove"))}
      </Button>
    </>
  );
}

/** Directories: how each is reached and used, its last synchronisation, "sync now", its history; adding, editing and deleting one. */
export function DirectoriesScreen() {
  const { t, lang } = useI18n();
  const d = useDirText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [history, setHistory] = useState<TDirectory | null>(null);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<TDirectory | null>(null);
  const [removing, setRemoving] = useState<TDirectory | null>(null);
  const [notice, setNotice] = useState<{ text: string; error?: boolean } | null>(null);
  const list = useQuery({ ...trpc.console.directories.list.queryOptions(), refetchInterval: (q) => (q.state.data?.some((x) => x.lastRun?.status === "running") ? 1000 : false) });
  const sync = useMutation(
    trpc.console.directories.syncNow.mutationOptions({
      onSuccess: (_, input) => {
        setNotice({ text: d("dir.started", { name: list.data?.find((x) => x.id === input.id)?.name ?? input.id }) });
        void queryClient.invalidateQueries(trpc.console.directories.pathFilter());
      },
      onError: (e) => setNotice({ text: messageOf(e, t), error: true }),
    }),
  );
  const remove = useMutation(
    trpc.console.directories.delete.mutationOptions({
      onSuccess: () => {
        setNotice({ text: d("dir.removed", { name: removing?.name ?? "" }) });
        setRemoving(null);
        void queryClient.invalidateQueries(trpc.console.directories.pathFilter());
      },
    }),
  );
  const columns: TColumn<TDirectory>[] = [
    { key: "directory", header: d("dir.col.directory"), cell: (x) => <><strong>{x.name}</strong> <code className="client-id">{x.id}</code></> },
    { key: "url", header: d("dir.col.url"), cell: (x) => <code className="saml-entity">{x.url}</code> },
    { key: "mode", header: d("dir.col.mode"), cell: (x) => modeOf(d, x) },
    { key: "lastRun", header: d("dir.col.lastRun"), cell: (x) => (x.mode === "synchronised" ? runLine(d, x.lastRun, lang) : "—") },
    {
      key: "actions",
      header: <span className="ui-visually-hidden">{d("dir.col.actions")}</span>,
      className: "cell-actions",
      cell: (x) => (
        <RowActions
          x={x}
          d={d}
          onSync={(full) => sync.mutate({ id: x.id, full })}
          onHistory={() => setHistory(x)}
          onEdit={() => {
            setNotice(null);
            setEditing(x);
          }}
          onRemove={() => {
            setNotice(null);
            setRemoving(x);
          }}
        />
      ),
    },
  ];

  let body;
  if (list.isPending) body = <LoadingState label={d("dir.loading")} />;
  else if (list.isError) body = <LoadFailedState label={d("dir.loadFailed")} error={list.error} retryLabel={d("dir.retry")} onRetry={() => void list.refetch()} />;
  else if (!list.data.length) body = <p className="muted">{d("dir.empty")}</p>;
  else body = <Table caption={d("dir.title")} columns={columns} rows={list.data} rowKey={(x) => x.id} />;

  return (
    <section className="clients">
      <div className="clients__head">
        <h1 className="page-title">{d("dir.title")}</h1>
        <Button variant="primary" onClick={() => setAdding(true)}>
          {d("dir.new")}
        </Button>
      </div>
      <p className="muted attr-intro">{d("dir.intro")}</p>
      <Notice text={notice?.text ?? null} error={notice?.error} />
      {body}
      <Dialog open={!!history} title={d("dir.historyTitle", { name: history?.name ?? "" })} onClose={() => setHistory(null)} wide>
        {history ? <DirectoryHistory id={history.id} /> : null}
      </Dialog>
      <Dialog open={adding} title={d("form.title")} onClose={() => setAdding(false)} wide>
        <DirectoryForm
          key={adding ? "open" : "closed"}
          onCancel={() => setAdding(false)}
          onSaved={(name) => {
            setAdding(false);
            setNotice({ text: d("dir.added", { name }) });
          }}
        />
      </Dialog>
      <Dialog open={!!editing} title={d("form.editTitle", { name: editing?.name ?? "" })} onClose={() => setEditing(null)} wide>
        {editing ? (
          <EditDirectory
            key={editing.id}
            id={editing.id}
            onCancel={() => setEditing(null)}
            onSaved={(name) => {
              setEditing(null);
              setNotice({ text: d("dir.saved", { name }) });
            }}
          />
        ) : null}
      </Dialog>
      <ConfirmDialog
        open={!!removing}
        title={d("dir.removeTitle", { name: removing?.name ?? "" })}
        body={d("dir.removeBody")}
        confirmLabel={d("dir.remove")}
        cancelLabel={d("dir.cancel")}
        danger
        pending={remove.isPending}
        error={remove.error ? messageOf(remove.error, t) : undefined}
        onConfirm={() => removing && remove.mutate({ id: removing.id })}
        onClose={() => {
          setRemoving(null);
          remove.reset();
        }}
      />
    </section>
  );
}
