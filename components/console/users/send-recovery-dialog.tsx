"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { SelectField } from "../../ui/field.tsx";
import { FormActions } from "../../ui/form-actions.tsx";
import { messageOf } from "../call-errors.ts";
import { useTRPC } from "../trpc.ts";
import { useUsersText } from "./i18n.ts";

type TProps = { sub: string; open: boolean; onClose: () => void; onDone: (to: string) => void };

/**
 * "Send a recovery message": a link to the person's confirmed e-mail or phone that sets a new
 * password once, or (while passkeys are offered) enrols a passkey once, for someone who is to sign
 * in without a password. Without a confirmed contact there is nowhere to send it, and the dialog
 * says so.
 */
export function SendRecoveryDialog({ sub, open, onClose, onDone }: TProps) {
  const { t } = useI18n();
  const u = useUsersText();
  const trpc = useTRPC();
  const channels = useQuery({ ...trpc.console.users.recoveryChannels.queryOptions({ sub }), enabled: open });
  const [channel, setChannel] = useState<"email" | "phone" | "">("");
  const [locale, setLocale] = useState<"ru" | "en">("ru");
  const [purpose, setPurpose] = useState<"password" | "passkey">("password");
  const passkeys = useQuery({ ...trpc.console.passkeys.offered.queryOptions(), enabled: open });
  const send = useMutation(trpc.console.users.sendRecovery.mutationOptions({ onSuccess: (r) => onDone(r.to) }));
  const offered = channels.data ?? [];
  const chosen = channel || offered[0];
  const close = () => {
    send.reset();
    setChannel("");
    setPurpose("password");
    onClose();
  };
  function submit(e: FormEvent) {
    e.preventDefault();
    if (chosen) send.mutate({ sub, channel: chosen, locale, purpose });
  }
  return (
    <Dialog open={open} title={u("recovery.title")} onClose={close}>
      <form className="user-form" onSubmit={submit} noValidate aria-busy={send.isPending}>
        <p className="muted">{u(purpose === "passkey" ? "recovery.explainPasskey" : "recovery.explain")}</p>
        {send.error ? <p className="ui-alert ui-alert--error" role="alert">{messageOf(send.error, t)}</p> : null}
        {channels.isSuccess && offered.length === 0 ? (
          <p className="ui-alert ui-alert--error" role="alert">{u("recovery.noContact")}</p>
        ) : (
          <>
            <SelectField label={u("recovery.channel")} value={chosen ?? ""} onChange={(e) => setChannel(e.target.value as "email" | "phone")}>
              {offered.map((c) => (
                <option key={c} value={c}>{u(c === "email" ? "recovery.email" : "recovery.phone")}</option>
              ))}
            </SelectField>
            {passkeys.data ? (
              <SelectField label={u("recovery.purpose")} value={purpose} onChange={(e) => setPurpose(e.target.value as "password" | "passkey")}>
                <option value="password">{u("recovery.purposePassword")}</option>
                <option value="passkey">{u("recovery.purposePasskey")}</option>
              </SelectField>
            ) : null}
            <SelectField label={u("recovery.language")} value={locale} onChange={(e) => setLocale(e.target.value as "ru" | "en")}>
              <option value="ru">Русский</option>
              <option value="en">English</option>
            </SelectField>
          </>
        )}
        {chosen ? (
          <FormActions pending={send.isPending} cancelLabel={u("detail.cancel")} submitLabel={u("recovery.submit")} pendingLabel={u("recovery.sending")} onCancel={close} />
        ) : (
          <div className="client-form__actions">
            <Button onClick={close}>{u("detail.cancel")}</Button>
          </div>
        )}
      </form>
    </Dialog>
  );
}
