"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useState, type FormEvent } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { CheckboxField, TextField } from "../../ui/field.tsx";
import { FormActions } from "../../ui/form-actions.tsx";
import { appCodeOf, usePortalErrorText } from "../portal-errors.ts";
import { useTRPC } from "../trpc.ts";
import { usePasswordText } from "./i18n.ts";

type TItem = { error: string; desc: string; pos: string };

function itemsOf(error: unknown): TItem[] {
  const code = appCodeOf(error);
  if ((code !== "request.invalid_values" && code !== "password.policy_violated" && code !== "password.store_refused") || !(error instanceof TRPCClientError)) return [];
  return ((error.data as { items?: TItem[] } | undefined)?.items ?? []).filter((i) => typeof i.pos === "string");
}

const EMPTY = { current: "", password: "", repeat: "" };

/**
 * Change password: the current one, the new one twice. Each rule of the policy the new password
 * breaks is listed in the server's words (in the page's language); a wrong current password is told
 * at its field, and counts toward the sign-in limit like a wrong sign-in.
 */
export function PasswordScreen() {
  const w = usePasswordText();
  const trpc = useTRPC();
  const rules = useQuery(trpc.portal.password.rules.queryOptions());
  return (
    <>
      <h1 className="page-title">{w("password.title")}</h1>
      <p className="portal-intro">{w("password.intro")}</p>
      {rules.data?.directory && !rules.data.directory.writable ? (
        <p className="ui-alert ui-alert--info" role="status" data-testid="password-in-directory">
          {w("password.inDirectory", { name: rules.data.directory.name })}
        </p>
      ) : (
        <PasswordForm />
      )}
    </>
  );
}

/** The form itself: shown unless the account's password is its directory's to change. */
function PasswordForm() {
  const w = usePasswordText();
  const { lang } = useI18n();
  const errorText = usePortalErrorText();
  const trpc = useTRPC();
  const [form, setForm] = useState(EMPTY);
  const [show, setShow] = useState(false);
  const [mismatch, setMismatch] = useState(false);
  const rules = useQuery(trpc.portal.password.rules.queryOptions());
  const change = useMutation(trpc.portal.password.change.mutationOptions({ onSuccess: () => setForm(EMPTY) }));
  const items = change.isError ? itemsOf(change.error) : [];
  const policy = items.filter((i) => i.error === "password_policy_violated");
  const currentError = items.find((i) => i.pos === "current")?.desc;
  const other = change.isError && items.length === 0 ? errorText(change.error) : undefined;

  function submit(e: FormEvent) {
    e.preventDefault();
    setMismatch(form.password !== form.repeat);
    if (form.password !== form.repeat) return;
    change.mutate({ current: form.current, password: form.password, locale: lang === "en" ? "en" : "ru" });
  }
  const type = show ? "text" : "password";
  return (
    <>
      {rules.data?.directory ? <p className="muted">{w("password.writtenToDirectory", { name: rules.data.directory.name })}</p> : null}
      {change.isSuccess ? (
        <p className="ui-alert ui-alert--info" role="status">
          {w("password.changed")}
        </p>
      ) : null}
      <form className="portal-card portal-form" onSubmit={submit} noValidate aria-busy={change.isPending} aria-labelledby="password-form-title">
        <h2 id="password-form-title" className="portal-section-title">
          {w("password.save")}
        </h2>
        {policy.length ? (
          <div className="ui-alert ui-alert--error" role="alert">
            <p>{w("password.policy")}</p>
            <ul data-testid="policy-problems">
              {policy.map((i) => (
                <li key={i.desc}>{i.desc}</li>
              ))}
            </ul>
          </div>
        ) : null}
        {other ? (
          <p className="ui-alert ui-alert--error" role="alert">
            {other}
          </p>
        ) : null}
        <TextField label={w("password.current")} type={type} autoComplete="current-password" value={form.current} onChange={(e) => setForm({ ...form, current: e.target.value })} error={currentError} required />
        <TextField label={w("password.new")} type={type} autoComplete="new-password" value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} hint={rules.data ? w("password.hint", { min: String(rules.data.minLength) }) : undefined} required />
        <TextField label={w("password.repeat")} type={type} autoComplete="new-password" value={form.repeat} onChange={(e) => setForm({ ...form, repeat: e.target.value })} error={mismatch ? w("password.mismatch") : undefined} required />
        <CheckboxField label={w("password.show")} checked={show} onChange={(e) => setShow(e.target.checked)} />
        <FormActions pending={change.isPending} submitLabel={w("password.save")} pendingLabel={w("password.saving")} />
      </form>
    </>
  );
}
