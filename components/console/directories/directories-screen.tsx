"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { formatDateTime } from "../../date-time.tsx";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { messageOf } from "../call-errors.ts";
import { LoadFailedState, LoadingState, Notice } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { useDirText, type TDirKey, type TDirText } from "./i18n.ts";

type TDirectory = inferRouterOutputs<AppRouter>["console"]["directories"]["list"][number];
type TRun = inferRouterOutputs<AppRouter>["console"]["directories"]["runs"][number];

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

/** One directory's latest runs, with their failures; refreshed while one runs. */
function History({ id }: { id: string }) {
  const d = useDirText();
  const { lang } = useI18n();
  const trpc = useTRPC();
  const runs = useQuery({ ...trpc.console.directories.runs.queryOptions({ id }), refetchInterval: (q) => (q.state.data?.some((r) => r.status === "running") ? 1000 : false) });
  if (runs.isPending) return <LoadingState label={d("dir.loading")} />;
  if (runs.isError) return <LoadFailedState label={d("dir.loadFailed")} error={runs.error} retryLabel={d("dir.retry")} onRetry={() => void runs.refetch()} />;
  const columns: TColumn<TRun>[] = [
    { key: "started", header: d("dir.runs.col.started"), cell: (r) => formatDateTime(r.startedAt, lang) },
    { key: "kind", header: d("dir.runs.col.kind"), cell: (r) => d(`dir.kind.${r.kind}` as TDirKey) },
    { key: "status", header: d("dir.runs.col.status"), cell: (r) => (r.status === "failed" ? `${d("dir.status.failed")}: ${r.error ?? ""}` : d(`dir.status.${r.status}` as TDirKey)) },
    { key: "counts", header: d("dir.runs.col.counts"), cell: (r) => [r.seen, r.created, r.updated, r.locked, r.unlocked, r.deleted, r.failed].join(" / ") },
    { key: "groups", header: d("dir.runs.col.groups"), cell: (r) => `${r.groupsCreated} / ${r.groupsUpdated} / +${r.membersAdded} / −${r.membersRemoved}` },
  ];
  const failures = runs.data.flatMap((r) => r.failures.map((f) => ({ ...f, run: r.id })));
  return (
    <>
      <Table caption={d("dir.runs.col.started")} columns={columns} rows={runs.data} rowKey={(r) => r.id} />
      {failures.length ? (
        <section aria-labelledby="dir-failures">
          <h3 id="dir-failures">{d("dir.runs.failures")}</h3>
          <ul className="dir-failures">
            {failures.map((f, i) => (
              <li key={`${f.run}-${i}`}>
                <code>{f.dn}</code>: {f.reason}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

/** Directories: how each is reached and used, its last synchronisation, "sync now", and its history. */
export function DirectoriesScreen() {
  const { t, lang } = useI18n();
  const d = useDirText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [history, setHistory] = useState<TDirectory | null>(null);
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
  const columns: TColumn<TDirectory>[] = [
    { key: "directory", header: d("dir.col.directory"), cell: (x) => <><strong>{x.name}</strong> <code className="client-id">{x.id}</code></> },
    { key: "url", header: d("dir.col.url"), cell: (x) => <code className="saml-entity">{x.url}</code> },
    { key: "mode", header: d("dir.col.mode"), cell: (x) => modeOf(d, x) },
    { key: "lastRun", header: d("dir.col.lastRun"), cell: (x) => (x.mode === "synchronised" ? runLine(d, x.lastRun, lang) : "—") },
    {
      key: "actions",
      header: <span className="ui-visually-hidden">{d("dir.col.actions")}</span>,
      className: "cell-actions",
      cell: (x) =>
        x.mode === "synchronised" && x.enabled ? (
          <>
            <Button size="sm" onClick={() => sync.mutate({ id: x.id, full: false })} disabled={x.lastRun?.status === "running"}>
              {d("dir.sync")}
              <span className="ui-visually-hidden"> {x.name}</span>
            </Button>
            <Button size="sm" variant="ghost" onClick={() => sync.mutate({ id: x.id, full: true })} disabled={x.lastRun?.status === "running"}>
              {d("dir.syncFull")}
              <span className="ui-visually-hidden"> {x.name}</span>
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setHistory(x)}>
              {d("dir.history")}
              <span className="ui-visually-hidden"> {x.name}</span>
            </Button>
          </>
        ) : null,
    },
  ];

  let body;
  if (list.isPending) body = <LoadingState label={d("dir.loading")} />;
  else if (list.isError) body = <LoadFailedState label={d("dir.loadFailed")} error={list.error} retryLabel={d("dir.retry")} onRetry={() => void list.refetch()} />;
  else if (!list.data.length) body = <p className="muted">{d("dir.empty")}</p>;
  else body = <Table caption={d("dir.title")} columns={columns} rows={list.data} rowKey={(x) => x.id} />;

  return (
    <section className="clients">
      <h1 className="page-title">{d("dir.title")}</h1>
      <p className="muted attr-intro">{d("dir.intro")}</p>
      <Notice text={notice?.text ?? null} error={notice?.error} />
      {body}
      <Dialog open={!!history} title={d("dir.historyTitle", { name: history?.name ?? "" })} onClose={() => setHistory(null)} wide>
        {history ? <History id={history.id} /> : null}
      </Dialog>
    </section>
  );
}
