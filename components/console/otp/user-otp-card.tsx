"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { DateTime } from "../../date-time.tsx";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { appCodeOf, messageOf } from "../call-errors.ts";
import { Notice } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { Card, RowAction } from "../user-sessions/card-parts.tsx";
import { useConfirmedAction, type TNotice } from "../user-sessions/use-confirmed-action.ts";
import { useOtpText, type TOtpText } from "./i18n.ts";
import { ResetSecondFactorDialog } from "./reset-second-factor-dialog.tsx";
import { useCan } from "../viewer.tsx";
import "./otp.css";

type TGenerator = inferRouterOutputs<AppRouter>["console"]["otp"]["userState"]["generators"][number];
type TModesChange = { requiredFactor?: 2 | null; needPasswordChange?: true; methodsLocked?: "password"[] };

function columns(o: TOtpText, onRemove: (g: TGenerator) => void): TColumn<TGenerator>[] {
  return [
    { key: "name", header: o("user.col.name"), cell: (g) => <strong>{g.name}</strong> },
    { key: "kind", header: o("user.col.kind"), cell: (g) => `${g.kind.toUpperCase()}${g.serial ? ` · ${g.serial}` : ""}` },
    { key: "len", header: o("user.col.len"), cell: (g) => g.len },
    { key: "used", header: o("user.col.lastUsed"), cell: (g) => (g.lastUsedAt ? <DateTime value={g.lastUsedAt} /> : <span className="muted">{o("user.never")}</span>) },
    { key: "actions", header: "", className: "cell-actions", cell: (g) => <RowAction label={o("user.remove")} row={g.name} onClick={() => onRemove(g)} /> },
  ];
}

/** A user's OTP generators and authentication modes: turn the second factor on or off, remove a generator. */
export function UserOtpCard({ sub }: { sub: string }) {
  const { t } = useI18n();
  const o = useOtpText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const state = useQuery(trpc.console.otp.userState.queryOptions({ sub }));
  const [notice, notify] = useState<TNotice>(null);
  const [resetting, setResetting] = useState(false);
  const canManage = useCan("manage_users");
  const after = () => void queryClient.invalidateQueries(trpc.console.otp.userState.pathFilter());
  const setModes = useMutation(trpc.console.otp.setAuthModes.mutationOptions({ onSettled: after }));
  const remove = useConfirmedAction(useMutation(trpc.console.otp.removeGenerator.mutationOptions()), {
    inputOf: (g: TGenerator) => ({ sub, id: g.id }),
    doneText: (g) => o("user.removed", { name: g.name }),
    goneCode: "otp.not_found",
    goneText: o("user.gone"),
    after,
    notify,
  });
  const change = (c: TModesChange) => {
    notify(null);
    setModes.mutate({ sub, ...c });
  };
  const modes = state.data?.modes;
  const modesError = setModes.isError ? (appCodeOf(setModes.error) === "auth_modes.no_second_factor_method" ? o("user.noMethod") : messageOf(setModes.error, t)) : undefined;
  return (
    <Card id="user-otp-title" title={o("user.title")}>
      {state.isPending ? <p className="muted">{o("user.loading")}</p> : null}
      {state.isError ? <Notice text={o("user.loadFailed")} error /> : null}
      {modes ? (
        <div className="otp-modes">
          <span className={`badge ${modes.secondFactor ? "badge--on" : "badge--off"}`}>{modes.secondFactor ? o("user.factorOn") : o("user.factorOff")}</span>
          {canManage ? (
            <Button size="sm" disabled={setModes.isPending} onClick={() => change({ requiredFactor: modes.secondFactor ? null : 2 })}>
              {modes.secondFactor ? o("user.turnOff") : o("user.turnOn")}
            </Button>
          ) : null}
          {modes.needPasswordChange ? (
            <span className="badge badge--off">{o("user.needPasswordChange")}</span>
          ) : canManage ? (
            <Button size="sm" disabled={setModes.isPending} onClick={() => change({ needPasswordChange: true })}>{o("user.forcePasswordChange")}</Button>
          ) : null}
          {modes.methodsLocked.includes("password") ? <span className="badge badge--off">{o("user.passwordLocked")}</span> : null}
          {canManage ? (
            <Button size="sm" disabled={setModes.isPending} onClick={() => change({ methodsLocked: modes.methodsLocked.includes("password") ? [] : ["password"] })}>
              {modes.methodsLocked.includes("password") ? o("user.unlockPassword") : o("user.lockPassword")}
            </Button>
          ) : null}
        </div>
      ) : null}
      {state.data ? (
        <div className="otp-modes">
          <span data-testid="backup-codes-count">
            {state.data.backupCodes.total ? o("user.backupLeft", { left: String(state.data.backupCodes.unused), total: String(state.data.backupCodes.total) }) : o("user.backupNone")}
          </span>
          {canManage && (modes?.secondFactor || state.data.generators.length || state.data.backupCodes.total) ? (
            <Button size="sm" variant="danger" onClick={() => { notify(null); setResetting(true); }}>{o("reset.open")}</Button>
          ) : null}
        </div>
      ) : null}
      <Notice text={modesError ?? notice?.text} error={!!modesError || notice?.error} />
      {state.data ? (
        state.data.generators.length ? (
          <Table caption={o("user.title")} columns={columns(o, remove.ask)} rows={state.data.generators} rowKey={(g) => g.id} />
        ) : (
          <p className="muted">{o("user.none")}</p>
        )
      ) : null}
      <ResetSecondFactorDialog
        sub={sub}
        open={resetting}
        onClose={() => setResetting(false)}
        onDone={(removed) => {
          setResetting(false);
          notify({ text: o("reset.done", { generators: String(removed.generators), codes: String(removed.backups) }), error: false });
          after();
        }}
      />
      <ConfirmDialog
        {...remove.dialog}
        title={remove.target ? o("user.removeTitle", { name: remove.target.name }) : ""}
        body={modes?.secondFactor && state.data?.generators.length === 1 ? o("user.lastOne") : o("user.removeBody")}
        confirmLabel={o("user.remove")}
        cancelLabel={o("common.cancel")}
        danger
      />
    </Card>
  );
}
