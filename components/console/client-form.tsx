"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useI18n } from "../i18n-provider.tsx";
import { CheckboxField, TextAreaField, TextField } from "../ui/field.tsx";
import { FormActions } from "../ui/form-actions.tsx";
import { AttributeSelections, useAttributeSelections } from "./attributes/attribute-selections.tsx";
import { fieldErrorsOf, messageOf } from "./call-errors.ts";
import { useClientsText } from "./clients/i18n.ts";
import { KIND_DEFAULTS, KindPicker, type TKind } from "./clients/kind-picker.tsx";
import { ScopePicker } from "./clients/scope-picker.tsx";
import { ClientProtocolFields, lifetimesOut, type TProtocolValues } from "./client-protocol-fields.tsx";
import { formatList, parseList } from "./list-text.ts";
import { useTRPC, type TConsoleClient } from "./trpc.ts";
import { useFocusFirstError } from "../ui/use-focus-first-error.ts";

type TProps = {
  /** Absent: create a new client. */
  client?: TConsoleClient;
  /** `secret` is null for a public client, which has none. */
  onCreated: (client: TConsoleClient, secret: string | null) => void;
  onSaved: () => void;
  onCancel: () => void;
};

const FIELDS = ["id", "name", "scopes", "userScopes", "redirectUris", "tlsCNs", "enabled", "firstParty", "pkceOptional", "grantTypes", "postLogoutRedirectUris", "dynamicRegistration"];

function protocolValues(client?: TConsoleClient): TProtocolValues {
  const life = (v: number | null | undefined) => (v == null ? "" : String(v));
  return {
    firstParty: client?.firstParty ?? false,
    pkceOptional: client?.pkceOptional ?? false,
    grantTypes: client?.grantTypes ?? KIND_DEFAULTS.web.grantTypes,
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
  const c = useClientsText();
  const [values, setValues] = useState(() => initialValues(client));
  const [protocol, setProtocol] = useState(() => protocolValues(client));
  const [kind, setKind] = useState<TKind>("web");
  const [scopes, setScopes] = useState(() => ({ scopes: client?.scopes ?? [], userScopes: client?.userScopes ?? [] }));
  const known = useQuery(trpc.console.clients.knownScopes.queryOptions(undefined, { staleTime: Infinity }));
  const type = client?.type ?? KIND_DEFAULTS[kind].type;
  // Fields a client of this type and these grants has no use for are hidden, and sent empty.
  const signsIn = protocol.grantTypes.includes("authorization_code");
  const confidential = type === "confidential";

  function chooseKind(next: TKind) {
    setKind(next);
    setProtocol((p) => ({ ...p, grantTypes: KIND_DEFAULTS[next].grantTypes }));
  }
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
  const formRef = useFocusFirstError<HTMLFormElement>(mutation.error);
  const unplaced = mutation.error && !Object.keys(errors).some((f) => FIELDS.includes(f));

  function submit(e: FormEvent) {
    e.preventDefault();
    const lists = {
      scopes: confidential ? scopes.scopes : [],
      userScopes: signsIn ? scopes.userScopes : [],
      redirectUris: signsIn ? parseList(values.redirectUris, "uris") : [],
      tlsCNs: confidential ? parseList(values.tlsCNs, "lines") : [],
      firstParty: protocol.firstParty,
      pkceOptional: protocol.pkceOptional,
      grantTypes: protocol.grantTypes,
      postLogoutRedirectUris: parseList(protocol.postLogoutRedirectUris, "uris"),
      tokenLifetimes: lifetimesOut(protocol.lifetimes),
      dynamicRegistration: { softwareIds: confidential ? parseList(values.softwareIds, "scopes") : [] },
    };
    if (client) update.mutate({ id: client.id, name: values.name, enabled: values.enabled, ...lists });
    else create.mutate({ id: values.id.trim(), name: values.name, type, ...lists });
  }

  const text = (field: "id" | "name" | "redirectUris" | "tlsCNs" | "softwareIds") => ({
    name: field,
    value: values[field],
    error: field === "softwareIds" ? softwareIdsError(errors) : errors[field],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value })),
  });

  return (
    <form ref={formRef} className="client-form" onSubmit={submit} noValidate aria-busy={mutation.isPending}>
      {mutation.error ? (
        <p className="ui-alert ui-alert--error" role="alert">
          {unplaced ? messageOf(mutation.error, t) : t("form.fixErrors")}
        </p>
      ) : null}
      {client ? null : <KindPicker value={kind} onChange={chooseKind} />}
      <div className="client-form__row">
        <TextField label={t("form.id")} {...text("id")} readOnly={!!client} autoComplete="off" spellCheck={false} required />
        <TextField label={t("form.name")} {...text("name")} autoComplete="off" required />
      </div>
      {signsIn ? <TextAreaField label={t("form.redirectUris")} hint={t("form.listHint")} rows={3} spellCheck={false} {...text("redirectUris")} /> : null}
      {signsIn ? (
        <ScopePicker
          name="userScopes"
          legend={t("form.userScopes")}
          hint={c("scopes.standardHint")}
          known={known.data?.user ?? []}
          value={scopes.userScopes}
          error={errors.userScopes}
          onChange={(userScopes) => setScopes((v) => ({ ...v, userScopes }))}
        />
      ) : null}
      {confidential ? (
        <ScopePicker
          name="scopes"
          legend={t("form.scopes")}
          known={known.data?.system ?? []}
          value={scopes.scopes}
          error={errors.scopes}
          onChange={(next) => setScopes((v) => ({ ...v, scopes: next }))}
        />
      ) : null}
      {confidential ? <TextAreaField label={t("form.tlsCNs")} hint={t("form.cnHint")} rows={2} spellCheck={false} {...text("tlsCNs")} /> : null}
      {confidential ? <TextAreaField label={t("form.softwareIds")} hint={t("form.softwareIdsHint")} rows={2} spellCheck={false} {...text("softwareIds")} /> : null}
      <ClientProtocolFields values={protocol} type={type} errors={errors} onChange={setProtocol} />
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
