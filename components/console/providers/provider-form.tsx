"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState, type FormEvent } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { CheckboxField, SelectField, TextField } from "../../ui/field.tsx";
import { FormActions } from "../../ui/form-actions.tsx";
import { appCodeOf, fieldErrorsOf, messageOf } from "../call-errors.ts";
import { formatList, parseList } from "../list-text.ts";
import { useTRPC } from "../trpc.ts";
import { DiscoveryResult } from "./discovery-result.tsx";
import { useProvidersText } from "./i18n.ts";
import { useFocusFirstError } from "../../ui/use-focus-first-error.ts";

export type TProvider = inferRouterOutputs<AppRouter>["console"]["providers"]["list"][number];

const URL_FIELDS = [
  ["issuer", "form.issuer"],
  ["authorizationEndpoint", "form.authorization"],
  ["tokenEndpoint", "form.token"],
  ["userinfoEndpoint", "form.userinfo"],
  ["jwksUri", "form.jwks"],
] as const;
const FLAGS = [
  ["offeredAtSignIn", "form.offeredAtSignIn"],
  ["rememberTokens", "form.rememberTokens"],
  ["allowRegistration", "form.allowRegistration"],
] as const;

function initialValues(p?: TProvider) {
  return {
    fpType: p?.fpType ?? "oidc",
    fpName: p?.fpName ?? "",
    clientId: p?.clientId ?? "",
    clientSecret: "",
    discoveryUrl: p?.discoveryUrl ?? "",
    issuer: p?.issuer ?? "",
    authorizationEndpoint: p?.authorizationEndpoint ?? "",
    tokenEndpoint: p?.tokenEndpoint ?? "",
    userinfoEndpoint: p?.userinfoEndpoint ?? "",
    jwksUri: p?.jwksUri ?? "",
    scopes: formatList(p?.scopes ?? ["openid"], "scopes"),
    sidClaim: p?.sidClaim ?? "sub",
    userNameClaim: p?.userNameClaim ?? "preferred_username",
    offeredAtSignIn: p?.offeredAtSignIn ?? false,
    rememberTokens: p?.rememberTokens ?? false,
    allowRegistration: p?.allowRegistration ?? false,
    minTokenLifeS: String(p?.minTokenLifeS ?? 30),
  };
}
type TValues = ReturnType<typeof initialValues>;

const optional = (s: string) => (s.trim() === "" ? undefined : s.trim());

/** The secret goes only when one is typed: leaving it out keeps the stored one. */
function toInput(v: TValues, sendSecret: boolean) {
  return {
    ...v,
    fpType: v.fpType as "oidc" | "oauth2",
    fpName: v.fpName.trim(),
    clientId: v.clientId.trim(),
    clientSecret: sendSecret ? optional(v.clientSecret) : undefined,
    discoveryUrl: optional(v.discoveryUrl),
    issuer: optional(v.issuer),
    authorizationEndpoint: optional(v.authorizationEndpoint),
    tokenEndpoint: optional(v.tokenEndpoint),
    userinfoEndpoint: optional(v.userinfoEndpoint),
    jwksUri: optional(v.jwksUri),
    scopes: parseList(v.scopes, "scopes"),
    minTokenLifeS: /^\d+$/.test(v.minTokenLifeS.trim()) ? Number(v.minTokenLifeS) : (v.minTokenLifeS as unknown as number),
  };
}

type TProps = { provider?: TProvider; onSaved: (name: string) => void; onCancel: () => void };

/** Create and edit share one form; the client secret is write-only ("set new secret" when editing). */
export function ProviderForm({ provider, onSaved, onCancel }: TProps) {
  const { t } = useI18n();
  const p = useProvidersText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(() => initialValues(provider));
  const [newSecret, setNewSecret] = useState(!provider);
  const options = {
    onSuccess: (saved: TProvider) => {
      void queryClient.invalidateQueries(trpc.console.providers.pathFilter());
      onSaved(`${saved.fpType}:${saved.fpName}`);
    },
  };
  const create = useMutation(trpc.console.providers.create.mutationOptions(options));
  const update = useMutation(trpc.console.providers.update.mutationOptions(options));
  const save = provider ? update : create;
  const discovery = useMutation(trpc.console.providers.testDiscovery.mutationOptions());

  const errors = save.error ? fieldErrorsOf(save.error, t) : {};

  const formRef = useFocusFirstError<HTMLFormElement>(save.error);
  if (appCodeOf(save.error) === "federation.provider_exists") errors.fpName = p("form.exists");
  const alert = Object.keys(errors).length ? p("form.fixErrors") : save.error ? messageOf(save.error, t) : null;

  const set = (field: keyof TValues) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(toInput(values, newSecret));
  };
  const testDiscovery = () => discovery.mutate({ discoveryUrl: values.discoveryUrl.trim(), issuer: optional(values.issuer) });

  return (
    <form ref={formRef} className="client-form" onSubmit={submit} noValidate aria-busy={save.isPending}>
      {alert ? (
        <p className="ui-alert ui-alert--error" role="alert">
          {alert}
        </p>
      ) : null}
      <div className="client-form__row">
        <SelectField label={p("form.type")} value={values.fpType} onChange={set("fpType")} error={errors.fpType} disabled={!!provider}>
          <option value="oidc">{p("form.type.oidc")}</option>
          <option value="oauth2">{p("form.type.oauth2")}</option>
        </SelectField>
        <TextField label={p("form.name")} hint={p("form.nameHint")} value={values.fpName} onChange={set("fpName")} error={errors.fpName} readOnly={!!provider} autoComplete="off" spellCheck={false} required />
      </div>
      <div className="client-form__row">
        <TextField label={p("form.clientId")} value={values.clientId} onChange={set("clientId")} error={errors.clientId} autoComplete="off" spellCheck={false} required />
        {newSecret ? (
          <TextField label={p("form.secret")} hint={p("form.secretHint")} type="password" value={values.clientSecret} onChange={set("clientSecret")} error={errors.clientSecret} autoComplete="new-password" />
        ) : (
          <div className="ui-field">
            <p className="ui-field__label">{p("form.secret")}</p>
            <p className="muted">{provider?.hasClientSecret ? p("form.secretSet") : p("form.secretNone")}</p>
            <Button size="sm" onClick={() => setNewSecret(true)}>
              {p("form.newSecret")}
            </Button>
          </div>
        )}
      </div>
      {provider && newSecret ? (
        <Button size="sm" variant="ghost" onClick={() => setNewSecret(false)}>
          {p("form.keepSecret")}
        </Button>
      ) : null}
      <TextField label={p("form.discoveryUrl")} hint={p("form.discoveryHint")} value={values.discoveryUrl} onChange={set("discoveryUrl")} error={errors.discoveryUrl} autoComplete="off" spellCheck={false} />
      <div className="fp-discovery">
        <Button size="sm" disabled={discovery.isPending || values.discoveryUrl.trim() === ""} onClick={testDiscovery}>
          {discovery.isPending ? p("discovery.testing") : p("discovery.test")}
        </Button>
        <DiscoveryResult result={discovery.data} error={discovery.error ? messageOf(discovery.error, t) : undefined} />
      </div>
      <div className="client-form__row">
        {URL_FIELDS.map(([field, label]) => (
          <TextField key={field} label={p(label)} value={values[field]} onChange={set(field)} error={errors[field]} autoComplete="off" spellCheck={false} />
        ))}
      </div>
      <TextField label={p("form.scopes")} hint={p("form.scopesHint")} value={values.scopes} onChange={set("scopes")} error={errors.scopes} autoComplete="off" spellCheck={false} />
      <div className="client-form__row">
        <TextField label={p("form.sidClaim")} value={values.sidClaim} onChange={set("sidClaim")} error={errors.sidClaim} autoComplete="off" spellCheck={false} />
        <TextField label={p("form.userNameClaim")} value={values.userNameClaim} onChange={set("userNameClaim")} error={errors.userNameClaim} autoComplete="off" spellCheck={false} />
        <TextField label={p("form.minTokenLife")} inputMode="numeric" value={values.minTokenLifeS} onChange={set("minTokenLifeS")} error={errors.minTokenLifeS} autoComplete="off" />
      </div>
      <fieldset className="attr-fieldset">
        {FLAGS.map(([flag, label]) => (
          <CheckboxField key={flag} label={p(label)} checked={values[flag]} error={errors[flag]} onChange={(e) => setValues((v) => ({ ...v, [flag]: e.target.checked }))} />
        ))}
      </fieldset>
      <FormActions pending={save.isPending} cancelLabel={p("fp.cancel")} submitLabel={provider ? p("form.save") : p("form.create")} pendingLabel={p("form.saving")} onCancel={onCancel} />
    </form>
  );
}
