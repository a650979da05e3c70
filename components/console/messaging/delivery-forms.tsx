"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState, type FormEvent } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { CheckboxField, SelectField, TextField } from "../../ui/field.tsx";
import { useFocusFirstError } from "../../ui/use-focus-first-error.ts";
import { fieldErrorsOf, messageOf } from "../call-errors.ts";
import { useTRPC } from "../trpc.ts";
import { useMessagingText } from "./i18n.ts";

type TSettings = inferRouterOutputs<AppRouter>["console"]["delivery"]["settings"];

/** Saving or clearing one channel; the page's settings are replaced by the answer. */
function useSaveChannel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.console.delivery.save.mutationOptions({
      onSuccess: (settings) => queryClient.setQueryData(trpc.console.delivery.settings.queryKey(), settings),
    }),
  );
}

function SaveOutcome({ save, savedText }: { save: ReturnType<typeof useSaveChannel>; savedText: string }) {
  const { t } = useI18n();
  if (save.isSuccess) return <p className="ui-alert ui-alert--info" role="status">{savedText}</p>;
  if (save.isError && Object.keys(fieldErrorsOf(save.error, t)).length === 0) {
    return <p className="ui-alert ui-alert--error" role="alert">{messageOf(save.error, t)}</p>;
  }
  return null;
}

/** The SMTP server as the console stores it; the password is write-only (empty keeps the saved one). */
export function EmailSettingsForm({ stored, canEdit }: { stored: TSettings["stored"]["email"]; canEdit: boolean }) {
  const { t } = useI18n();
  const m = useMessagingText();
  const save = useSaveChannel();
  const [host, setHost] = useState(stored?.host ?? "");
  const [port, setPort] = useState(String(stored?.port ?? 587));
  const [security, setSecurity] = useState<"starttls" | "tls" | "none">(stored?.security ?? "starttls");
  const [username, setUsername] = useState(stored?.username ?? "");
  const [password, setPassword] = useState("");
  const [from, setFrom] = useState(stored?.from ?? "");
  const errors = save.isError ? fieldErrorsOf(save.error, t) : {};
  const formRef = useFocusFirstError<HTMLFormElement>(save.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ channel: "email", settings: { host, port: Number(port), security, username: username || undefined, password: password || undefined, from } });
    setPassword("");
  };
  return (
    <form ref={formRef} className="delivery-form" onSubmit={submit} noValidate aria-label={m("delivery.emailForm")}>
      <div className="delivery-form__row">
        <TextField label={m("delivery.host")} value={host} onChange={(e) => setHost(e.target.value)} error={errors["settings.host"]} disabled={!canEdit} required autoComplete="off" />
        <TextField label={m("delivery.port")} value={port} inputMode="numeric" onChange={(e) => setPort(e.target.value)} error={errors["settings.port"]} disabled={!canEdit} required />
        <SelectField label={m("delivery.security")} value={security} onChange={(e) => setSecurity(e.target.value as "starttls" | "tls" | "none")} error={errors["settings.security"]} disabled={!canEdit}>
          <option value="starttls">{m("delivery.starttls")}</option>
          <option value="tls">{m("delivery.tls")}</option>
          <option value="none">{m("delivery.noTls")}</option>
        </SelectField>
      </div>
      <div className="delivery-form__row delivery-form__row--two">
        <TextField label={m("delivery.username")} value={username} onChange={(e) => setUsername(e.target.value)} error={errors["settings.username"]} disabled={!canEdit} autoComplete="off" />
        <TextField
          label={m("delivery.password")}
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors["settings.password"]}
          hint={stored?.passwordSet ? m("delivery.passwordKept") : undefined}
          disabled={!canEdit || !username}
          autoComplete="new-password"
        />
      </div>
      <TextField label={m("delivery.from")} value={from} onChange={(e) => setFrom(e.target.value)} error={errors["settings.from"]} hint={m("delivery.fromHint")} disabled={!canEdit} required />
      {canEdit ? (
        <div className="delivery-form__actions">
          <Button type="submit" variant="primary" disabled={save.isPending}>{save.isPending ? m("delivery.saving") : m("delivery.save")}</Button>
          {stored ? (
            <Button onClick={() => save.mutate({ channel: "email", settings: null })} disabled={save.isPending}>{m("delivery.clear")}</Button>
          ) : null}
        </div>
      ) : null}
      <SaveOutcome save={save} savedText={m("delivery.saved")} />
    </form>
  );
}

/** The SMS webhook as the console stores it; the token is write-only (empty keeps the saved one). */
export function SmsSettingsForm({ stored, canEdit }: { stored: TSettings["stored"]["sms"]; canEdit: boolean }) {
  const { t } = useI18n();
  const m = useMessagingText();
  const save = useSaveChannel();
  const [url, setUrl] = useState(stored?.url ?? "");
  const [token, setToken] = useState("");
  const [removeToken, setRemoveToken] = useState(false);
  const errors = save.isError ? fieldErrorsOf(save.error, t) : {};
  const formRef = useFocusFirstError<HTMLFormElement>(save.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ channel: "sms", settings: { url, token: token || undefined, removeToken: removeToken || undefined } });
    setToken("");
    setRemoveToken(false);
  };
  return (
    <form ref={formRef} className="delivery-form" onSubmit={submit} noValidate aria-label={m("delivery.smsForm")}>
      <TextField label={m("delivery.webhook")} type="url" value={url} onChange={(e) => setUrl(e.target.value)} error={errors["settings.url"]} hint={m("delivery.webhookHint")} disabled={!canEdit} required autoComplete="off" />
      <TextField
        label={m("delivery.token")}
        type="password"
        value={token}
        onChange={(e) => setToken(e.target.value)}
        error={errors["settings.token"]}
        hint={stored?.tokenSet ? m("delivery.tokenKept") : m("delivery.tokenHint")}
        disabled={!canEdit || removeToken}
        autoComplete="new-password"
      />
      {stored?.tokenSet && canEdit ? <CheckboxField label={m("delivery.removeToken")} checked={removeToken} onChange={(e) => setRemoveToken(e.target.checked)} /> : null}
      {canEdit ? (
        <div className="delivery-form__actions">
          <Button type="submit" variant="primary" disabled={save.isPending}>{save.isPending ? m("delivery.saving") : m("delivery.save")}</Button>
          {stored ? (
            <Button onClick={() => save.mutate({ channel: "sms", settings: null })} disabled={save.isPending}>{m("delivery.clear")}</Button>
          ) : null}
        </div>
      ) : null}
      <SaveOutcome save={save} savedText={m("delivery.saved")} />
    </form>
  );
}
