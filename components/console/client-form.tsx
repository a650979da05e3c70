"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useI18n } from "../i18n-provider.tsx";
import { CheckboxField, TextAreaField, TextField } from "../ui/field.tsx";
import { FormActions } from "../ui/form-actions.tsx";
import { AttributeSelections, useAttributeSelections } from "./attributes/attribute-selections.tsx";
import { fieldErrorsOf, messageOf } from "./call-errors.ts";
import { ClientProtocolFields, lifetimesOut, type TProtocolValues } from "./client-protocol-fields.tsx";
import { formatList, parseList } from "./list-text.ts";
import { useTRPC, type TConsoleClient } from "./trpc.ts";

type TProps = {
  /** Absent: create a new client. */
  client?: TConsoleClient;
  onCreated: (client: TConsoleClient, secret: string) => void;
  onSaved: () => void;
  onCancel: () => void;
};

const FIELDS = ["id", "name", "scopes", "userScopes", "redirectUris", "tlsCNs", "enabled", "firstParty", "pkceOptional", "grantTypes", "postLogoutRedirectUris", "dynamicRegistration"];

function protocolValues(client?: TConsoleClient): TProtocolValues {
  const life = (v: number | null | undefined) => (v == null ? "" : String(v));
  return {
    firstParty: client?.firstParty ?? false,
    pkceOptional: client?.pkceOptional ?? false,
    grantTypes: client?.grantTypes ?? ["client_credentials"],
    postLogoutRedirectUris: formatList(client?.postLogoutRedirectUris ?? [], "uris"),
    lifetimes: {
      accessToken: life(client?.tokenLifetimes.accessToken),
      refreshToken: life(client?.tokenLifetimes.refreshToken),
      idToken: life(client?.tokenLifetimes.idToken),
    },
  };
}

function initialValues(client?: TConsoleClient) {
  return {
    id: client?.id ?? "",
    name: client?.name ?? "",
    scopes: formatList(client?.scopes ?? [], "scopes"),
    userScopes: formatList(client?.userScopes ?? [], "scopes"),
    redirectUris: formatList(client?.redirectUris ?? [], "uris"),
    tlsCNs: formatList(client?.tlsCNs ?? [], "lines"),
    // Software ids are written like client ids: no spaces or commas, so they split as scopes do.
    softwareIds: formatList(client?.dynamicRegistration.softwareIds ?? [], "scopes"),
    enabled: client?.enabled ?? true,
  };
}

/** A whole-client rule names dynamicRegistration; a bad id names its place in the list. */
function softwareIdsError(errors: Record<string, string>): string | undefined {
  return errors.dynamicRegistration ?? Object.entries(errors).find(([k]) => k.startsWith("dynamicRegistration."))?.[1];
}

/** Create and edit share one form; the edit sends every field, since the service replaces them all. */
export function ClientForm({ client, onCreated, onSaved, onCancel }: TProps) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(() => initialValues(client));
  const [protocol, setProtocol] = useState(() => protocolValues(client));
  const refreshList = () => queryClient.invalidateQueries(trpc.console.clients.list.pathFilter());

  const create = useMutation(
    trpc.console.clients.create.mutationOptions({
      // The answer holds the secret: forget it as soon as nothing shows it.
      gcTime: 0,
      onSuccess: (result) => {
        void refreshList();
        onCreated(result.client, result.secret);
      },
    }),
  );
  const selections = useAttributeSelections(client?.id);
  const update = useMutation(
    trpc.console.clients.update.mutationOptions({
      // The selections are saved once the client is; the dialog stays open if one of them fails.
      onSuccess: async () => {
        void refreshList();
        if (await selections.saveChanged()) onSaved();
      },
    }),
  );
  const mutation = client ? update : create;
  const errors = mutation.error ? fieldErrorsOf(mutation.error, t) : {};
  const unplaced = mutation.error && !Object.keys(errors).some((f) => FIELDS.includes(f));

  function submit(e: FormEvent) {
    e.preventDefault();
    const lists = {
      scopes: parseList(values.scopes, "scopes"),
      userScopes: parseList(values.userScopes, "scopes"),
      redirectUris: parseList(values.redirectUris, "uris"),
      tlsCNs: parseList(values.tlsCNs, "lines"),
      firstParty: protocol.firstParty,
      pkceOptional: protocol.pkceOptional,
      grantTypes: protocol.grantTypes,
      postLogoutRedirectUris: parseList(protocol.postLogoutRedirectUris, "uris"),
      tokenLifetimes: lifetimesOut(protocol.lifetimes),
      dynamicRegistration: { softwareIds: parseList(values.softwareIds, "scopes") },
    };
    if (client) update.mutate({ id: client.id, name: values.name, enabled: values.enabled, ...lists });
    else create.mutate({ id: values.id.trim(), name: values.name, ...lists });
  }

  const text = (field: "id" | "name" | "scopes" | "userScopes" | "redirectUris" | "tlsCNs" | "softwareIds") => ({
    name: field,
    value: values[field],
    error: field === "softwareIds" ? softwareIdsError(errors) : errors[field],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value })),
  });

  return (
    <form className="client-form" onSubmit={submit} noValidate aria-busy={mutation.isPending}>
      {mutation.error ? (
        <p className="ui-alert ui-alert--error" role="alert">
          {unplaced ? messageOf(mutation.error, t) : t("form.fixErrors")}
        </p>
      ) : null}
      <div className="client-form__row">
        <TextField label={t("form.id")} {...text("id")} readOnly={!!client} autoComplete="off" spellCheck={false} required />
        <TextField label={t("form.name")} {...text("name")} autoComplete="off" required />
      </div>
      <TextAreaField label={t("form.scopes")} hint={t("form.listHint")} rows={2} spellCheck={false} {...text("scopes")} />
      <TextAreaField label={t("form.userScopes")} hint={t("form.listHint")} rows={2} spellCheck={false} {...text("userScopes")} />
      <TextAreaField label={t("form.redirectUris")} hint={t("form.listHint")} rows={3} spellCheck={false} {...text("redirectUris")} />
      <TextAreaField label={t("form.tlsCNs")} hint={t("form.cnHint")} rows={2} spellCheck={false} {...text("tlsCNs")} />
      <TextAreaField label={t("form.softwareIds")} hint={t("form.softwareIdsHint")} rows={2} spellCheck={false} {...text("softwareIds")} />
      <ClientProtocolFields values={protocol} type={client?.type ?? "confidential"} errors={errors} onChange={setProtocol} />
      {client ? (
        <CheckboxField
          label={t("form.enabled")}
          name="enabled"
          checked={values.enabled}
          error={errors.enabled}
          onChange={(e) => setValues((v) => ({ ...v, enabled: e.target.checked }))}
        />
      ) : null}
      {client ? <AttributeSelections selections={selections} /> : null}
      <FormActions
        pending={mutation.isPending}
        cancelLabel={t("form.cancel")}
        submitLabel={client ? t("form.save") : t("form.create")}
        pendingLabel={t("form.saving")}
        onCancel={onCancel}
      />
    </form>
  );
}
