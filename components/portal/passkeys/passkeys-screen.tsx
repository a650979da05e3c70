"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { startRegistration, WebAuthnError, type PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { TextField } from "../../ui/field.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { appCodeOf, usePortalErrorText } from "../portal-errors.ts";
import { formatTime, Notice, PortalLoadFailed, PortalLoading, type TNotice } from "../portal-states.tsx";
import { useTRPC, type TPortalOutputs } from "../trpc.ts";
import { usePasskeysText } from "./i18n.ts";
import { PasswordlessCard } from "./passwordless-card.tsx";

type TPasskey = TPortalOutputs["passkeys"]["list"][number];

/** Why a passkey could not be removed, where the page has words of its own for it. */
const REMOVAL_REFUSALS: Record<string, "passkeys.lastWayIn" | "passkeys.lastSecondFactor"> = {
  "passkeys.last_sign_in_method": "passkeys.lastWayIn",
  "passkeys.last_second_factor": "passkeys.lastSecondFactor",
};
const unix = (d: Date | string) => Math.floor(new Date(d).getTime() / 1000);

/** Why the browser's ceremony did not give an answer, in words (the person cancelled, or the device has one already). */
function useCeremonyFailure() {
  const p = usePasskeysText();
  const reason = usePortalErrorText();
  return (e: unknown): string => {
    if (e instanceof WebAuthnError && e.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") return p("passkeys.already");
    if (e instanceof Error && (e.name === "NotAllowedError" || e.name === "AbortError")) return p("passkeys.cancelled");
    if (e instanceof Error && e.message.includes("does not support WebAuthn")) return p("passkeys.unsupported");
    return reason(e);
  };
}

/** Names the new passkey, asks the server for options, lets the browser and the device make it, and sends the answer back. */
function AddPasskey({ onAdded }: { onAdded: (name: string) => void }) {
  const p = usePasskeysText();
  const trpc = useTRPC();
  const failureOf = useCeremonyFailure();
  const [name, setName] = useState(p("passkeys.defaultName"));
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const start = useMutation(trpc.portal.passkeys.start.mutationOptions());
  const finish = useMutation(trpc.portal.passkeys.finish.mutationOptions());
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    setBusy(true);
    try {
      // The server's options as JSON (its extensions' binary types do not survive inference through tRPC).
      const optionsJSON = (await start.mutateAsync()) as PublicKeyCredentialCreationOptionsJSON;
      const answer = await startRegistration({ optionsJSON });
      const added = await finish.mutateAsync({ answer, name });
      onAdded(added.name);
    } catch (error) {
      setFailure(failureOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="otp-add" onSubmit={(e) => void submit(e)} aria-labelledby="passkey-add-title" noValidate>
      <h2 id="passkey-add-title">{p("passkeys.add")}</h2>
      <TextField label={p("passkeys.name")} hint={p("passkeys.nameHint")} value={name} onChange={(e) => setName(e.target.value)} maxLength={64} autoComplete="off" required />
      <div className="otp-add__actions">
        <Button type="submit" variant="primary" disabled={busy || !name.trim()} aria-busy={busy}>
          {busy ? p("passkeys.adding") : p("passkeys.add")}
        </Button>
      </div>
      <Notice text={failure} error />
    </form>
  );
}

function RenameDialog({ passkey, onClose, onRenamed }: { passkey: TPasskey | null; onClose: () => void; onRenamed: (name: string) => void }) {
  const p = usePasskeysText();
  const reason = usePortalErrorText();
  const trpc = useTRPC();
  const [name, setName] = useState(passkey?.name ?? "");
  const rename = useMutation(trpc.portal.passkeys.rename.mutationOptions());
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (passkey) rename.mutate({ id: passkey.id, name }, { onSuccess: () => onRenamed(name.trim()) });
  };
  return (
    <Dialog open={passkey !== null} title={passkey ? p("passkeys.renameTitle", { name: passkey.name }) : ""} onClose={onClose}>
      <form onSubmit={submit} noValidate className="otp-add">
        <TextField label={p("passkeys.col.name")} value={name} onChange={(e) => setName(e.target.value)} maxLength={64} autoComplete="off" error={rename.isError ? reason(rename.error) : undefined} required />
        <div className="otp-add__actions">
          <Button type="submit" variant="primary" disabled={rename.isPending || !name.trim()}>{p("passkeys.save")}</Button>
          <Button onClick={onClose}>{p("passkeys.cancel")}</Button>
        </div>
      </form>
    </Dialog>
  );
}

/** The person's passkeys: listed with their kind and use, added, renamed and removed. */
export function PasskeysScreen() {
  const p = usePasskeysText();
  const { lang } = useI18n();
  const reason = usePortalErrorText();
  const trpc = useTRPC();
  const list = useQuery(trpc.portal.passkeys.list.queryOptions());
  const offered = useQuery(trpc.portal.passkeys.offered.queryOptions());
  // The console sends an administrator here (?for=console) when the passkey policy requires one.
  const forConsole = useSearchParams().get("for") === "console";
  const [notice, setNotice] = useState<TNotice>(null);
  const [renaming, setRenaming] = useState<TPasskey | null>(null);
  const [removing, setRemoving] = useState<TPasskey | null>(null);
  const remove = useMutation(trpc.portal.passkeys.remove.mutationOptions());
  const done = (text: string) => {
    setNotice({ text });
    void list.refetch();
  };
  const confirmRemove = () => {
    if (!removing) return;
    const { id, name } = removing;
    remove.mutate({ id }, { onSuccess: () => (setRemoving(null), done(p("passkeys.removed", { name }))) });
  };
  const columns: TColumn<TPasskey>[] = [
    { key: "name", header: p("passkeys.col.name"), cell: (k) => <strong>{k.name}</strong> },
    { key: "authenticator", header: p("passkeys.col.authenticator"), cell: (k) => k.authenticator ?? <span className="muted">{p("passkeys.unknownAuthenticator")}</span> },
    { key: "kind", header: p("passkeys.col.kind"), cell: (k) => (k.synced ? p("passkeys.synced") : p("passkeys.device")) },
    { key: "added", header: p("passkeys.col.added"), cell: (k) => formatTime(unix(k.createdAt), lang) },
    { key: "used", header: p("passkeys.col.lastUsed"), cell: (k) => (k.lastUsedAt ? formatTime(unix(k.lastUsedAt), lang) : <span className="muted">{p("passkeys.never")}</span>) },
    {
      key: "actions",
      header: "",
      className: "cell-actions",
      cell: (k) => (
        <span className="portal-row-actions">
          <Button size="sm" onClick={() => setRenaming(k)}>
            {p("passkeys.rename")}
            <span className="ui-visually-hidden"> {k.name}</span>
          </Button>
          <Button size="sm" variant="danger" onClick={() => (remove.reset(), setRemoving(k))}>
            {p("passkeys.remove")}
            <span className="ui-visually-hidden"> {k.name}</span>
          </Button>
        </span>
      ),
    },
  ];
  if (list.isPending) return <PortalLoading />;
  if (list.isError) return <PortalLoadFailed label={p("passkeys.loadFailed")} error={list.error} onRetry={() => void list.refetch()} />;
  return (
    <section className="portal-section otp-page" aria-labelledby="passkeys-title">
      <h1 id="passkeys-title" className="page-title">{p("passkeys.title")}</h1>
      <p className="muted">{p("passkeys.intro")}</p>
      {forConsole ? <Notice text={p("passkeys.forConsole")} /> : null}
      <Notice text={notice?.text} error={notice?.error} />
      <h2>{p("passkeys.list")}</h2>
      {list.data.length ? <Table caption={p("passkeys.list")} columns={columns} rows={list.data} rowKey={(k) => k.id} /> : <p className="muted">{p("passkeys.none")}</p>}
      {offered.data === false ? <p className="muted">{p("passkeys.notOffered")}</p> : offered.data ? <AddPasskey onAdded={(name) => done(p("passkeys.added", { name }))} /> : null}
      <PasswordlessCard passkeys={list.data.length} onDropped={(text) => setNotice({ text })} />
      <RenameDialog key={renaming?.id ?? "none"} passkey={renaming} onClose={() => setRenaming(null)} onRenamed={(name) => (setRenaming(null), done(p("passkeys.renamed", { name })))} />
      <ConfirmDialog
        open={removing !== null}
        title={removing ? p("passkeys.removeTitle", { name: removing.name }) : ""}
        body={p("passkeys.removeBody")}
        confirmLabel={p("passkeys.remove")}
        cancelLabel={p("passkeys.cancel")}
        pending={remove.isPending}
        error={remove.isError ? (REMOVAL_REFUSALS[appCodeOf(remove.error) ?? ""] ? p(REMOVAL_REFUSALS[appCodeOf(remove.error)!]!) : reason(remove.error)) : undefined}
        onConfirm={confirmRemove}
        onClose={() => setRemoving(null)}
        danger
      />
    </section>
  );
}
