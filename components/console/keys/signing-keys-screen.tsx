"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { DateTime, formatDateTime } from "../../date-time.tsx";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { messageOf } from "../call-errors.ts";
import { ListStates } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { useKeysText, type TKeysKey, type TKeysText } from "./i18n.ts";

type TKey = inferRouterOutputs<AppRouter>["console"]["signingKeys"]["list"]["keys"][number];
type TAsk = "rotate" | "compromised" | null;

const when = (d: Date | string | null) => (d ? <DateTime value={d} /> : "—");

function columns(k: TKeysText): TColumn<TKey>[] {
  return [
    { key: "kid", header: k("keys.col.kid"), cell: (r) => <code>{r.kid}</code> },
    { key: "state", header: k("keys.col.state"), cell: (r) => k(`keys.state.${r.state}` as TKeysKey) },
    { key: "signsFrom", header: k("keys.col.signsFrom"), cell: (r) => when(r.signsFrom) },
    { key: "retiredAt", header: k("keys.col.retiredAt"), cell: (r) => when(r.retiredAt) },
  ];
}

/** Seconds as people say them: "10 min", "45 s". */
const duration = (s: number) => (s >= 60 && s % 60 === 0 ? `${s / 60} min` : `${s} s`);

export function SigningKeysScreen() {
  const { t, lang } = useI18n();
  const k = useKeysText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [ask, setAsk] = useState<TAsk>(null);
  const keys = useQuery(trpc.console.signingKeys.list.queryOptions());
  const rotate = useMutation(
    trpc.console.signingKeys.rotate.mutationOptions({
      onSuccess: () => setAsk(null),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.console.signingKeys.list.queryKey() }),
    }),
  );
  const ahead = keys.data ? duration(keys.data.publishAheadS) : "…";
  const signsAt = formatDateTime(Date.now() + (keys.data?.publishAheadS ?? 0) * 1000, lang);
  return (
    <section className="signing-keys">
      <h1 className="page-title">{k("keys.title")}</h1>
      <p className="muted">{k("keys.intro", { ahead })}</p>
      <div className="signing-keys__actions">
        <Button variant="primary" onClick={() => (rotate.reset(), setAsk("rotate"))}>
          {k("keys.rotate")}
        </Button>
        <Button variant="danger" onClick={() => (rotate.reset(), setAsk("compromised"))}>
          {k("keys.compromised")}
        </Button>
      </div>
      {rotate.data ? (
        <p className="ui-alert ui-alert--info" role="status">
          {k("keys.rotated", { kid: rotate.data.kid, at: formatDateTime(rotate.data.signsFrom, lang) })}
        </p>
      ) : null}
      <ListStates query={keys} count={keys.data?.keys.length ?? 0} loading={k("keys.loading")} failed={k("keys.loadFailed")} retry={k("common.retry")} empty={k("keys.empty")}>
        {keys.data ? <Table caption={k("keys.title")} columns={columns(k)} rows={keys.data.keys} rowKey={(r) => r.kid} /> : null}
      </ListStates>
      <ConfirmDialog
        open={ask !== null}
        title={ask === "compromised" ? k("keys.compromisedTitle") : k("keys.rotateTitle")}
        body={ask === "compromised" ? k("keys.compromisedBody") : k("keys.rotateBody", { at: signsAt })}
        confirmLabel={ask === "compromised" ? k("keys.compromised") : k("keys.rotate")}
        cancelLabel={k("keys.cancel")}
        danger={ask === "compromised"}
        pending={rotate.isPending}
        error={rotate.isError ? messageOf(rotate.error, t) : undefined}
        onConfirm={() => rotate.mutate({ compromised: ask === "compromised" })}
        onClose={() => setAsk(null)}
      />
    </section>
  );
}
