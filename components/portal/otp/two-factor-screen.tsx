"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { QRCodeSVG } from "qrcode.react";
import { useState, type FormEvent } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { CheckboxField, TextField } from "../../ui/field.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { appCodeOf, usePortalErrorText } from "../portal-errors.ts";
import { formatTime, Notice, PortalLoadFailed, PortalLoading, type TNotice } from "../portal-states.tsx";
import { useTRPC, type TPortalOutputs } from "../trpc.ts";
import { BackupCodesShown, BackupCodesSummary } from "./backup-codes.tsx";
import { useOtpPortalText } from "./i18n.ts";

type TGenerator = TPortalOutputs["otp"]["state"]["generators"][number];
type TStarted = TPortalOutputs["otp"]["start"];
const unix = (d: Date | string) => Math.floor(new Date(d).getTime() / 1000);

/**
 * Stage 1 shows the QR code and the key; stage 2 takes the app's current code and, while the second
 * factor is off, turns it on in the same step unless the person unticks it.
 */
function AddAuthenticator({ offerTurnOn, onDone }: { offerTurnOn: boolean; onDone: (notice: TNotice, backupCodes?: string[]) => void }) {
  const o = useOtpPortalText();
  const reason = usePortalErrorText();
  const trpc = useTRPC();
  const [started, setStarted] = useState<TStarted | null>(null);
  const [code, setCode] = useState("");
  const [name, setName] = useState("");
  const [turnOn, setTurnOn] = useState(true);
  const start = useMutation(trpc.portal.otp.start.mutationOptions({ onSuccess: (s) => setStarted(s) }));
  const finish = useMutation(trpc.portal.otp.finish.mutationOptions());
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!started) return;
    try {
      const done = await finish.mutateAsync({ base32Secret: started.base32Secret, otpCode: code, name: name || undefined, turnOn: offerTurnOn && turnOn });
      setStarted(null);
      setCode("");
      onDone({ text: o(done.backupCodes ? "otp.addedOn" : "otp.added") }, done.backupCodes);
    } catch {
      // told below the form
    }
  };
  const failure = finish.isError
    ? appCodeOf(finish.error) === "otp.wrong_code" ? o("otp.wrongCode") : appCodeOf(finish.error) === "otp.unknown_secret" ? o("otp.expired") : reason(finish.error)
    : undefined;
  if (!started) {
    return (
      <div className="otp-add">
        <Button variant="primary" onClick={() => start.mutate()} disabled={start.isPending} aria-busy={start.isPending}>
          {o("otp.add")}
        </Button>
        <p className="muted">{o("otp.replaceNote")}</p>
        {start.isError ? <Notice text={reason(start.error)} error /> : null}
      </div>
    );
  }
  return (
    <form className="otp-add" onSubmit={(e) => void submit(e)} aria-labelledby="otp-add-title" noValidate>
      <h2 id="otp-add-title">{o("otp.add")}</h2>
      <p>{o("otp.scan")}</p>
      <div className="otp-add__qr">
        <QRCodeSVG value={started.otpauthUri} size={192} marginSize={2} title={o("otp.add")} />
      </div>
      <p>
        {o("otp.secret")}: <code data-testid="otp-secret">{started.base32Secret.replace(/(.{4})/g, "$1 ").trim()}</code>
      </p>
      <TextField label={o("otp.name")} value={name} onChange={(e) => setName(e.target.value)} maxLength={64} autoComplete="off" />
      <TextField label={o("otp.code")} value={code} onChange={(e) => setCode(e.target.value)} inputMode="numeric" autoComplete="one-time-code" error={failure} required />
      {offerTurnOn ? <CheckboxField label={o("otp.turnOnWith")} checked={turnOn} onChange={(e) => setTurnOn(e.target.checked)} /> : null}
      <div className="otp-add__actions">
        <Button type="submit" variant="primary" disabled={!code || finish.isPending} aria-busy={finish.isPending}>
          {finish.isPending ? o("otp.confirming") : o("otp.confirm")}
        </Button>
        <Button onClick={() => setStarted(null)}>{o("otp.cancel")}</Button>
      </div>
    </form>
  );
}

/** The person's authenticators, the second factor on or off, and adding an authenticator app by QR code. */
export function TwoFactorScreen() {
  const o = useOtpPortalText();
  const { lang } = useI18n();
  const reason = usePortalErrorText();
  const trpc = useTRPC();
  const state = useQuery(trpc.portal.otp.state.queryOptions());
  const [notice, setNotice] = useState<TNotice>(null);
  const [chosen, setChosen] = useState<TGenerator | null>(null);
  const [shownCodes, setShownCodes] = useState<string[] | null>(null);
  const queryClient = useQueryClient();
  // The second factor decides the shortest password the person may choose: the password page's hint follows.
  const toggle = useMutation(
    trpc.portal.otp.setSecondFactor.mutationOptions({
      onSuccess: (r) => setShownCodes(r.backupCodes ?? null),
      onSettled: () => {
        void state.refetch();
        void queryClient.invalidateQueries({ queryKey: trpc.portal.password.rules.queryKey() });
      },
    }),
  );
  const remove = useMutation(trpc.portal.otp.remove.mutationOptions());
  const done = (n: TNotice, backupCodes?: string[]) => {
    setNotice(n);
    if (backupCodes) setShownCodes(backupCodes);
    void state.refetch();
    void queryClient.invalidateQueries({ queryKey: trpc.portal.password.rules.queryKey() });
  };
  const confirmRemove = async () => {
    if (!chosen) return;
    try {
      await remove.mutateAsync({ id: chosen.id });
      done({ text: o("otp.removed", { name: chosen.name }) });
      setChosen(null);
    } catch (e) {
      if (appCodeOf(e) === "otp.not_found") {
        done({ text: o("otp.gone"), error: true });
        setChosen(null);
      }
    }
  };
  const columns: TColumn<TGenerator>[] = [
    { key: "name", header: o("otp.col.name"), cell: (g) => <strong>{g.name}</strong> },
    { key: "kind", header: o("otp.col.kind"), cell: (g) => g.kind.toUpperCase() },
    { key: "added", header: o("otp.col.added"), cell: (g) => formatTime(unix(g.createdAt), lang) },
    { key: "used", header: o("otp.col.lastUsed"), cell: (g) => (g.lastUsedAt ? formatTime(unix(g.lastUsedAt), lang) : <span className="muted">{o("otp.never")}</span>) },
    {
      key: "actions",
      header: "",
      className: "cell-actions",
      cell: (g) => (
        <Button size="sm" variant="danger" onClick={() => {
            remove.reset();
            setChosen(g);
          }}>
          {o("otp.remove")}
          <span className="ui-visually-hidden"> {g.name}</span>
        </Button>
      ),
    },
  ];
  if (state.isPending) return <PortalLoading />;
  if (state.isError) return <PortalLoadFailed label={o("otp.loadFailed")} error={state.error} onRetry={() => void state.refetch()} />;
  const { generators, secondFactor, backupCodes } = state.data;
  const toggleError = toggle.isError ? (appCodeOf(toggle.error) === "auth_modes.no_second_factor_method" ? o("otp.needsGenerator") : reason(toggle.error)) : undefined;
  const removeError = remove.isError ? (appCodeOf(remove.error) === "otp.last_second_factor" ? o("otp.lastOne") : reason(remove.error)) : undefined;
  return (
    <section className="portal-section otp-page" aria-labelledby="otp-title">
      <h1 id="otp-title" className="page-title">{o("otp.title")}</h1>
      <p className="muted">{o("otp.intro")}</p>
      <Notice text={notice?.text} error={notice?.error} />
      <div className="otp-factor">
        <span className={`badge ${secondFactor ? "badge--on" : "badge--off"}`} data-testid="second-factor-state">{secondFactor ? o("otp.factorOn") : o("otp.factorOff")}</span>
        <Button onClick={() => toggle.mutate({ on: !secondFactor })} disabled={toggle.isPending || (!secondFactor && generators.length === 0)} aria-busy={toggle.isPending}>
          {secondFactor ? o("otp.turnOff") : o("otp.turnOn")}
        </Button>
        {!secondFactor && generators.length === 0 ? <span className="muted">{o("otp.needsGenerator")}</span> : null}
      </div>
      <Notice text={toggleError} error />
      {shownCodes ? <BackupCodesShown codes={shownCodes} onDone={() => setShownCodes(null)} /> : null}
      {secondFactor && !shownCodes ? <BackupCodesSummary count={backupCodes} onRenewed={(codes) => done({ text: o("backup.renewed") }, codes)} /> : null}
      <h2>{o("otp.list")}</h2>
      {generators.length ? <Table caption={o("otp.list")} columns={columns} rows={generators} rowKey={(g) => g.id} /> : <p className="muted">{o("otp.none")}</p>}
      <AddAuthenticator offerTurnOn={!secondFactor} onDone={done} />
      <ConfirmDialog
        open={chosen !== null}
        title={chosen ? o("otp.removeTitle", { name: chosen.name }) : ""}
        body={o("otp.removeBody")}
        confirmLabel={o("otp.remove")}
        cancelLabel={o("otp.cancelLabel")}
        pending={remove.isPending}
        error={removeError}
        onConfirm={() => void confirmRemove()}
        onClose={() => setChosen(null)}
        danger
      />
    </section>
  );
}
