"use client";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { TextField } from "../../ui/field.tsx";
import { formatTime, Notice } from "../portal-states.tsx";
import { appCodeOf, usePortalErrorText } from "../portal-errors.ts";
import { useTRPC } from "../trpc.ts";
import { useProfileText } from "./i18n.ts";
import type { TContact, TNotice, TPending } from "./types.ts";
import { useCountdown } from "./use-countdown.ts";

export type TCodeEnd = { kind: "confirmed" } | { kind: "failed"; reason: "code.expired" | "code.noAttempts" | "code.gone" };

type TProps = {
  contact: TContact;
  pending: TPending;
  /** When the profile holding `pending` was read: its seconds count from then. */
  readAt: number;
  /** The shown form of the new address (a phone as people write it). */
  shownValue: string;
  onEnd: (end: TCodeEnd) => void;
  /** Take the focus (the person just asked for the code). */
  focus: boolean;
};

const FAILURE = { code_expired: "code.expired", no_attempts_left: "code.noAttempts" } as const;

/**
 * The code sent to a new address: entered here, or asked for again once the cooldown has passed
 * (the wait is shown). A wrong code says how many attempts are left; a confirmation that can no
 * longer succeed ends, and the card offers to start again.
 */
export function CodeEntry({ contact, pending, readAt, shownValue, onEnd, focus }: TProps) {
  const u = useProfileText();
  const { lang } = useI18n();
  const reason = usePortalErrorText();
  const trpc = useTRPC();
  const [code, setCode] = useState("");
  const [message, setMessage] = useState<TNotice>(null);
  const [resendAt, setResendAt] = useState(readAt + pending.resendIn * 1000);
  const wait = useCountdown(resendAt);
  const call = { state: pending.state, kind: contact.kind, lang };

  const onFailure = (error: unknown) => {
    if (appCodeOf(error) === "contact.not_found") onEnd({ kind: "failed", reason: "code.gone" });
    else setMessage({ text: reason(error), error: true });
  };
  const confirm = useMutation(
    trpc.portal.profile.confirmContact.mutationOptions({
      onMutate: () => setMessage(null),
      onSuccess: (r) => {
        if (r.result === "confirmed") onEnd({ kind: "confirmed" });
        else if (r.result === "failed") onEnd({ kind: "failed", reason: FAILURE[r.cause] });
        else if (r.result === "wrong_code") {
          setMessage({ text: u("code.wrong", { n: String(r.attemptsLeft) }), error: true });
          setCode("");
        }
      },
      onError: onFailure,
    }),
  );
  const resend = useMutation(
    trpc.portal.profile.resendCode.mutationOptions({
      onMutate: () => setMessage(null),
      onSuccess: (r) => {
        if (r.result === "resent") {
          setResendAt(Date.now() + r.resendIn * 1000);
          setMessage({ text: u("code.resent") });
        } else if (r.result === "too_soon") {
          setResendAt(Date.now() + r.retryAfter * 1000);
        } else if (r.result === "failed") onEnd({ kind: "failed", reason: FAILURE[r.cause] });
      },
      onError: onFailure,
    }),
  );

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) {
      setMessage({ text: u("code.empty"), error: true });
      return;
    }
    confirm.mutate({ ...call, code });
  }

  const busy = confirm.isPending || resend.isPending;
  return (
    <form className="code-entry" onSubmit={submit} noValidate aria-busy={busy}>
      <p>{u("code.sent", { to: shownValue })}</p>
      <p className="muted">{u("code.validUntil", { time: formatTime(Math.floor((readAt + pending.expiresIn * 1000) / 1000), lang) })}</p>
      <TextField
        label={u("code.label")}
        name={`${contact.attr}-code`}
        inputMode="numeric"
        autoComplete="one-time-code"
        spellCheck={false}
        autoFocus={focus}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        error={message?.error ? message.text : undefined}
        className="code-entry__field"
      />
      {message && !message.error ? <Notice text={message.text} /> : null}
      <div className="code-entry__actions">
        <Button type="submit" variant="primary" disabled={busy}>
          {confirm.isPending ? u("code.confirming") : u("code.confirm")}
        </Button>
        <Button onClick={() => resend.mutate(call)} disabled={busy || wait > 0} aria-describedby={wait > 0 ? `${contact.attr}-resend-wait` : undefined}>
          {u("code.resend")}
        </Button>
      </div>
      {wait > 0 ? (
        // Not a live region: a number read out every second would drown everything else.
        <p id={`${contact.attr}-resend-wait`} className="muted">
          {u("code.resendIn", { s: String(wait) })}
        </p>
      ) : null}
    </form>
  );
}
