"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { TextField } from "../../ui/field.tsx";
import { messageOf } from "../call-errors.ts";
import { UnixTime } from "../events/unix-time.tsx";
import { useTRPC } from "../trpc.ts";
import { useAccountSecurityText } from "./i18n.ts";
import type { TAccountSecurity, TNotify } from "./types.ts";

function StateLine({ state }: { state: TAccountSecurity["state"] }) {
  const a = useAccountSecurityText();
  // The sentence carries a time: split it around the placeholder so the time stays a <time> element.
  const withTime = (key: Parameters<typeof a>[0], seconds: number) => {
    const [before, after] = a(key, { time: "\u0000" }).split("\u0000");
    return (
      <>
        {before}
        <UnixTime seconds={seconds} />
        {after}
      </>
    );
  };
  if (state.name === "active") return withTime("state.active", state.checkedOn!);
  if (state.name === "inactivityLock") return withTime("state.inactivityLock", state.on!);
  if (state.name === "untouchable") return state.till ? withTime("state.untouchableTill", state.till) : <>{a("state.untouchable")}</>;
  return <>{a("state.initial")}</>;
}

/** The end of the chosen day in the browser's time zone, as Unix seconds. */
const endOfDay = (date: string) => Math.floor(new Date(`${date}T23:59:59`).getTime() / 1000);

/** The state, with unlock, "untouchable until" and "end exemption". */
export function StateSection({ sub, data, notify, after }: { sub: string; data: TAccountSecurity; notify: TNotify; after: () => void }) {
  const a = useAccountSecurityText();
  const { t } = useI18n();
  const trpc = useTRPC();
  const [until, setUntil] = useState("");
  const report = (call: Promise<unknown>, done: string) =>
    call.then(() => notify({ text: done, error: false }), (e: unknown) => notify({ text: a("failed", { message: messageOf(e, t) }), error: true })).finally(after);
  const unlock = useMutation(trpc.console.accountSecurity.unlock.mutationOptions());
  const setUntouchable = useMutation(trpc.console.accountSecurity.setUntouchable.mutationOptions());
  const endUntouchable = useMutation(trpc.console.accountSecurity.endUntouchable.mutationOptions());
  const { state } = data;
  return (
    <div className="account-security__section">
      <h3 className="account-security__label">{a("state.label")}</h3>
      <p data-testid="account-state">
        <StateLine state={state} />
      </p>
      <p className="muted">{data.inactivityLockDays ? a("state.lockOn", { days: String(data.inactivityLockDays) }) : a("state.lockOff")}</p>
      <div className="account-security__actions">
        {state.name === "inactivityLock" ? (
          <Button variant="primary" size="sm" disabled={unlock.isPending} onClick={() => void report(unlock.mutateAsync({ sub }), a("state.unlocked"))}>
            {a("state.unlock")}
          </Button>
        ) : null}
        {state.name === "untouchable" ? (
          <Button size="sm" disabled={endUntouchable.isPending} onClick={() => void report(endUntouchable.mutateAsync({ sub }), a("state.ended"))}>
            {a("state.endUntouchable")}
          </Button>
        ) : null}
      </div>
      <form
        className="account-security__inline"
        onSubmit={(e) => {
          e.preventDefault();
          void report(setUntouchable.mutateAsync(until ? { sub, till: endOfDay(until) } : { sub }).then(() => setUntil("")), a("state.madeUntouchable"));
        }}
      >
        <TextField label={a("state.until")} type="date" value={until} onChange={(e) => setUntil(e.target.value)} />
        <Button type="submit" size="sm" disabled={setUntouchable.isPending}>
          {a("state.makeUntouchable")}
        </Button>
      </form>
    </div>
  );
}
