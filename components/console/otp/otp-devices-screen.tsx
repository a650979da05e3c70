"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import type { inferRouterOutputs } from "@trpc/server";
import { useState, type FormEvent } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { DateTime } from "../../date-time.tsx";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { SelectField, TextField } from "../../ui/field.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { messageOf } from "../call-errors.ts";
import { ListStates, SearchBar } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { useDebounced } from "../use-debounced.ts";
import { useOtpText, type TOtpText } from "./i18n.ts";
import "./otp.css";

type TDevice = inferRouterOutputs<AppRouter>["console"]["otp"]["devices"]["rows"][number];
type TFormat = "pskc" | "csv";

function columns(o: TOtpText): TColumn<TDevice>[] {
  return [
    { key: "serial", header: o("devices.col.serial"), cell: (d) => <code>{d.serial}</code> },
    { key: "kind", header: o("devices.col.kind"), cell: (d) => (d.kind === "totp" ? `TOTP, ${d.period} s` : `HOTP, #${d.counter}`) },
    { key: "params", header: o("devices.col.params"), cell: (d) => `${d.algo}, ${d.digits}` },
    { key: "source", header: o("devices.col.source"), cell: (d) => d.source.toUpperCase() },
    { key: "bound", header: o("devices.col.boundTo"), cell: (d) => d.boundTo ?? <span className="muted">{o("devices.free")}</span> },
    { key: "loaded", header: o("devices.col.loaded"), cell: (d) => <DateTime value={d.loadedAt} /> },
  ];
}

/** The mistakes of a refused file, one per line of the answer, as the server named them. */
function mistakesOf(error: unknown): { pos: string; desc: string }[] {
  const items = error instanceof TRPCClientError ? ((error.data as { items?: { pos: string; desc: string }[] } | undefined)?.items ?? []) : [];
  return items;
}

function LoadForm() {
  const { t } = useI18n();
  const o = useOtpText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [format, setFormat] = useState<TFormat>("pskc");
  const [file, setFile] = useState<File | null>(null);
  const load = useMutation(trpc.console.otp.loadDevices.mutationOptions({ onSettled: () => queryClient.invalidateQueries(trpc.console.otp.devices.pathFilter()) }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (file) load.mutate({ format, content: await file.text() });
  };
  const mistakes = load.isError ? mistakesOf(load.error) : [];
  return (
    <form className="otp-load" aria-labelledby="otp-load-title" onSubmit={(e) => void submit(e)} noValidate>
      <h2 id="otp-load-title">{o("devices.load")}</h2>
      <div className="otp-load__row">
        <SelectField label={o("devices.format")} value={format} onChange={(e) => setFormat(e.target.value as TFormat)}>
          <option value="pskc">{o("devices.format.pskc")}</option>
          <option value="csv">{o("devices.format.csv")}</option>
        </SelectField>
        <TextField label={o("devices.file")} type="file" accept={format === "pskc" ? ".xml,.pskc" : ".csv,.txt"} onChange={(e) => setFile(e.target.files?.[0] ?? null)} required />
        <Button type="submit" variant="primary" disabled={!file || load.isPending} aria-busy={load.isPending}>
          {load.isPending ? o("devices.loading") : o("devices.submit")}
        </Button>
      </div>
      {load.data ? (
        <p className="ui-alert ui-alert--info" role="status">
          {o("devices.loaded", { created: String(load.data.created.length), updated: String(load.data.updated.length), unchanged: String(load.data.unchanged.length) })}
        </p>
      ) : null}
      {load.isError ? (
        <div className="ui-alert ui-alert--error" role="alert">
          {mistakes.length ? (
            <>
              <p>{o("devices.mistakes")}</p>
              <ul className="otp-load__mistakes">
                {mistakes.map((m, i) => (
                  <li key={i}>{m.pos ? `${m.pos}: ${m.desc}` : m.desc}</li>
                ))}
              </ul>
            </>
          ) : (
            messageOf(load.error, t)
          )}
        </div>
      ) : null}
    </form>
  );
}

export function OtpDevicesScreen() {
  const o = useOtpText();
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(0);
  const settled = useDebounced(search, 300);
  const devices = useQuery({ ...trpc.console.otp.devices.queryOptions({ search: settled || undefined, page }), placeholderData: keepPreviousData });
  const data = devices.data;
  const last = data ? Math.max(0, Math.ceil(data.total / data.pageSize) - 1) : 0;
  return (
    <section className="otp-devices">
      <h1 className="page-title">{o("devices.title")}</h1>
      <p className="muted">{o("devices.intro")}</p>
      <LoadForm />
      <SearchBar label={o("devices.search")} placeholder="987654321" value={search} onChange={(v) => { setSearch(v); setPage(0); }} busy={devices.isFetching} />
      <ListStates query={devices} count={data?.rows.length ?? 0} loading={o("devices.loading")} failed={o("devices.loadFailed")} retry={o("common.retry")} empty={o("devices.empty")}>
        {data ? (
          <>
            <Table caption={o("devices.title")} columns={columns(o)} rows={data.rows} rowKey={(d) => d.serial} />
            <div className="otp-devices__pager">
              <Button size="sm" disabled={page === 0} onClick={() => setPage(page - 1)}>{o("devices.prev")}</Button>
              <span className="muted">{o("devices.page", { from: String(page * data.pageSize + 1), to: String(page * data.pageSize + data.rows.length), total: String(data.total) })}</span>
              <Button size="sm" disabled={page >= last} onClick={() => setPage(page + 1)}>{o("devices.next")}</Button>
            </div>
          </>
        ) : null}
      </ListStates>
    </section>
  );
}
