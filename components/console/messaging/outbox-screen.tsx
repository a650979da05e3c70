"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { SelectField } from "../../ui/field.tsx";
import { messageOf } from "../call-errors.ts";
import { LoadFailedState, LoadingState, Notice } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { useMessagingText } from "./i18n.ts";
import "./messaging.css";
import { OutboxTable } from "./outbox-table.tsx";
import { useOutboxPages, type TOutboxPages, type TStatusFilter } from "./use-outbox-pages.ts";

const STATUSES = ["pending", "sent", "failed"] as const;

/** Whichever the list is in: loading, failed, empty, or the table. */
function ListBody({ pages, filtered, children }: { pages: TOutboxPages; filtered: boolean; children: ReactNode }) {
  const m = useMessagingText();
  const { first } = pages;
  if (first.isPending) return <LoadingState label={m("outbox.loading")} />;
  if (first.isError) return <LoadFailedState label={m("outbox.loadFailed")} error={first.error} retryLabel={m("outbox.retry")} onRetry={() => void first.refetch()} />;
  if (pages.messages.length === 0) {
    return (
      <div className="state state--empty">
        <p className="state__title">{filtered ? m("outbox.emptyFiltered") : m("outbox.empty")}</p>
      </div>
    );
  }
  return <>{children}</>;
}

function isAlreadySent(error: unknown): boolean {
  return error instanceof TRPCClientError && (error.data as { appCode?: string } | undefined)?.appCode === "outbox.already_sent";
}

function StatusFilter({ status, onChange }: { status: TStatusFilter; onChange: (next: string) => void }) {
  const m = useMessagingText();
  return (
    <SelectField label={m("outbox.status")} value={status ?? ""} className="outbox__filter" onChange={(e) => onChange(e.target.value)}>
      <option value="">{m("outbox.status.all")}</option>
      {STATUSES.map((s) => (
        <option key={s} value={s}>
          {m(`outbox.status.${s}`)}
        </option>
      ))}
    </SelectField>
  );
}

/** The outbox list; the status filter lives in the URL (?status=failed) so it survives a reload and can be linked. */
export function OutboxScreen({ status }: { status: TStatusFilter }) {
  const { t } = useI18n();
  const m = useMessagingText();
  const router = useRouter();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pages = useOutboxPages(status);
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null);
  const resend = useMutation(
    trpc.console.outbox.resend.mutationOptions({
      onSuccess: () => setNotice({ text: m("outbox.resent"), error: false }),
      onError: (e) => setNotice({ text: isAlreadySent(e) ? m("outbox.alreadySent") : messageOf(e, t), error: true }),
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.console.outbox.list.pathKey() }),
    }),
  );

  return (
    <section className="outbox">
      <h1 className="page-title">{m("outbox.title")}</h1>
      <p className="muted outbox__intro">{m("outbox.intro")}</p>
      <div className="clients__toolbar">
        <StatusFilter
          status={status}
          onChange={(next) => {
            setNotice(null);
            router.replace(next ? `/console/outbox?status=${next}` : "/console/outbox");
          }}
        />
        {pages.first.isFetching && !pages.first.isPending ? <span className="spinner" aria-hidden="true" /> : null}
      </div>
      <Notice text={notice?.text} error={notice?.error} />
      <ListBody pages={pages} filtered={!!status}>
        <OutboxTable
          messages={pages.messages}
          resendingId={resend.isPending ? (resend.variables?.id ?? null) : null}
          onResend={(msg) => {
            setNotice(null);
            resend.mutate({ id: msg.id });
          }}
        />
      </ListBody>
      {pages.loadMore || pages.loadingMore ? (
        <div className="clients__more">
          <Button onClick={() => pages.loadMore?.()} disabled={pages.loadingMore}>
            {pages.loadingMore ? m("outbox.loading") : m("outbox.loadMore")}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
