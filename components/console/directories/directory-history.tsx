"use client";
import { useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";
import { formatDateTime } from "../../date-time.tsx";
import { useI18n } from "../../i18n-provider.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { LoadFailedState, LoadingState } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { useDirText, type TDirKey } from "./i18n.ts";

type TRun = inferRouterOutputs<AppRouter>["console"]["directories"]["runs"][number];

/** One directory's latest runs, with their failures; refreshed while one runs. */
export function DirectoryHistory({ id }: { id: string }) {
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
