"use client";
import { useQuery } from "@tanstack/react-query";
import { Fragment, useId, useState } from "react";
import { DateTime } from "../../date-time.tsx";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { messageOf } from "../call-errors.ts";
import { useTRPC } from "../trpc.ts";
import { useMessagingText, type TMessagingText } from "./i18n.ts";
import type { TConsoleMessage } from "./use-outbox-pages.ts";

const STATUS_BADGE = { pending: "badge--warn", sent: "badge--on", failed: "badge--error" } as const;
const COLUMNS = ["created", "channel", "recipient", "subject", "status", "attempts", "lastError", "sent"] as const;

function When({ iso }: { iso: string | null }) {
  if (!iso) return <span className="muted">—</span>;
  return <DateTime value={iso} />;
}

/** The decrypted text, fetched only when a row is opened (each reading is audited on the server). */
function MessageText({ message, id }: { message: TConsoleMessage; id: string }) {
  const { t } = useI18n();
  const m = useMessagingText();
  const trpc = useTRPC();
  const text = useQuery(trpc.console.outbox.text.queryOptions({ id: message.id }, { staleTime: Infinity }));
  return (
    <div id={id} role="region" aria-label={m("outbox.textOf", { to: message.recipient })} className="outbox-text">
      {text.isPending ? <span className="muted">{m("outbox.textLoading")}</span> : null}
      {text.isError ? <p className="ui-alert ui-alert--error" role="alert">{messageOf(text.error, t)}</p> : null}
      {text.data ? <pre className="outbox-text__body">{text.data.text}</pre> : null}
      <p className="muted outbox-text__meta">
        {m("outbox.details", { template: message.template, purpose: message.purpose, locale: message.locale })}
      </p>
    </div>
  );
}

function cells(msg: TConsoleMessage, m: TMessagingText) {
  return {
    created: <When iso={msg.createdAt} />,
    channel: m(`outbox.channel.${msg.channel}`),
    recipient: <span className="outbox-recipient">{msg.recipient}</span>,
    subject: msg.subject ?? <span className="muted">—</span>,
    status: <span className={`badge ${STATUS_BADGE[msg.status]}`}>{m(`outbox.status.${msg.status}`)}</span>,
    attempts: msg.attempts,
    lastError: msg.lastError ? <span className="outbox-error">{msg.lastError}</span> : <span className="muted">—</span>,
    sent: <When iso={msg.sentAt} />,
  };
}

type TRowProps = { message: TConsoleMessage; onResend: (m: TConsoleMessage) => void; resending: boolean };

function OutboxRow({ message, onResend, resending }: TRowProps) {
  const m = useMessagingText();
  const [open, setOpen] = useState(false);
  const detailId = useId();
  const values = cells(message, m);
  return (
    <Fragment>
      <tr>
        {COLUMNS.map((c) => (
          <td key={c}>{values[c]}</td>
        ))}
        <td className="cell-actions">
          <div className="row-actions">
            <Button size="sm" variant="ghost" aria-expanded={open} aria-controls={open ? detailId : undefined} onClick={() => setOpen(!open)}>
              {open ? m("outbox.hide") : m("outbox.show")}
              <span className="ui-visually-hidden"> {message.recipient}</span>
            </Button>
            {message.status === "sent" ? null : (
              <Button size="sm" variant="ghost" disabled={resending} onClick={() => onResend(message)}>
                {m("outbox.resend")}
                <span className="ui-visually-hidden"> {message.recipient}</span>
              </Button>
            )}
          </div>
        </td>
      </tr>
      {open ? (
        <tr className="outbox-detail">
          <td colSpan={COLUMNS.length + 1}>
            <MessageText message={message} id={detailId} />
          </td>
        </tr>
      ) : null}
    </Fragment>
  );
}

export function OutboxTable({ messages, onResend, resendingId }: { messages: TConsoleMessage[]; onResend: TRowProps["onResend"]; resendingId: string | null }) {
  const m = useMessagingText();
  return (
    <div className="ui-table-wrap">
      <table className="ui-table outbox-table">
        <caption className="ui-visually-hidden">{m("outbox.title")}</caption>
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th key={c} scope="col">
                {m(`outbox.col.${c}`)}
              </th>
            ))}
            <th scope="col" className="cell-actions">
              <span className="ui-visually-hidden">{m("outbox.col.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {messages.map((msg) => (
            <OutboxRow key={msg.id} message={msg} onResend={onResend} resending={resendingId === msg.id} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
