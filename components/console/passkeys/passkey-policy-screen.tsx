"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState, type ChangeEvent, type FormEvent } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { CheckboxField, SelectField, TextField } from "../../ui/field.tsx";
import { useFocusFirstError } from "../../ui/use-focus-first-error.ts";
import { fieldErrorsOf, messageOf } from "../call-errors.ts";
import { SaveOutcome } from "../save-outcome.tsx";
import { QueryStates } from "../list-parts.tsx";
import "../passwords/password-policy.css";
import { useTRPC } from "../trpc.ts";
import { usePasskeyPolicyText, type TPkPolicyKey } from "./policy-i18n.ts";

type TData = inferRouterOutputs<AppRouter>["console"]["passkeyPolicy"]["get"];
type TPolicy = TData["policy"];
type TMetadata = TData["metadata"];

/** The uploaded metadata: what it holds, and a new file to replace it. */
function MetadataUpload({ metadata }: { metadata: TMetadata }) {
  const { t } = useI18n();
  const k = usePasskeyPolicyText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const upload = useMutation(
    trpc.console.passkeyPolicy.uploadMetadata.mutationOptions({ onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.console.passkeyPolicy.get.queryKey() }) }),
  );
  const choose = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (file) upload.mutate({ file: await file.text() });
  };
  return (
    <div className="policy-metadata">
      <p className="muted">
        {metadata.uploaded ? k("pkpolicy.metadataLoaded", { count: String(metadata.authenticators.length), source: k(metadata.signed ? "pkpolicy.signed" : "pkpolicy.unsigned") }) : k("pkpolicy.metadataNone")}
      </p>
      <TextField label={upload.isPending ? k("pkpolicy.uploading") : k("pkpolicy.upload")} type="file" accept=".jwt,.json,application/json,text/plain" onChange={(e) => void choose(e)} disabled={upload.isPending} />
      {upload.isSuccess ? (
        <p className="ui-alert ui-alert--info" role="status">
          {k("pkpolicy.uploaded", { count: String(upload.data.authenticators.length) })}
        </p>
      ) : null}
      {upload.isError ? (
        <p className="ui-alert ui-alert--error" role="alert">
          {[messageOf(upload.error, t), ...Object.values(fieldErrorsOf(upload.error, t))].join(" ")}
        </p>
      ) : null}
    </div>
  );
}

/** The metadata's models as checkboxes, narrowed by a search (the FIDO metadata lists hundreds). */
function ModelPicker({ metadata, allowed, onChange, error }: { metadata: TMetadata; allowed: string[]; onChange: (next: string[]) => void; error?: string }) {
  const k = usePasskeyPolicyText();
  const [filter, setFilter] = useState("");
  const needle = filter.trim().toLowerCase();
  const shown = metadata.authenticators.filter((a) => allowed.includes(a.aaguid) || !needle || a.name.toLowerCase().includes(needle) || a.aaguid.includes(needle));
  return (
    <fieldset className="policy-models">
      <legend>{k("pkpolicy.allowed")}</legend>
      <TextField label={k("pkpolicy.filter")} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
      {shown.length ? (
        <ul className="policy-models__list">
          {shown.slice(0, 200).map((a) => (
            <li key={a.aaguid}>
              <CheckboxField
                label={`${a.name} (${a.aaguid})${a.compromised ? ` — ${k("pkpolicy.compromised")}` : ""}`}
                checked={allowed.includes(a.aaguid)}
                disabled={a.compromised && !allowed.includes(a.aaguid)}
                onChange={(e) => onChange(e.target.checked ? [...allowed, a.aaguid] : allowed.filter((x) => x !== a.aaguid))}
              />
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{k("pkpolicy.noMatch")}</p>
      )}
      {error ? (
        <p className="ui-field__error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

function PolicyForm({ initial, metadata }: { initial: TPolicy; metadata: TMetadata }) {
  const { t } = useI18n();
  const k = usePasskeyPolicyText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<TPolicy>(initial);
  const save = useMutation(
    trpc.console.passkeyPolicy.save.mutationOptions({
      onSuccess: (saved) => {
        setDraft(saved);
        void queryClient.invalidateQueries({ queryKey: trpc.console.passkeyPolicy.get.queryKey() });
      },
    }),
  );
  const errors = save.isError ? fieldErrorsOf(save.error, t) : {};
  const formRef = useFocusFirstError<HTMLFormElement>(save.error);
  const set = (patch: Partial<TPolicy>) => setDraft((d) => ({ ...d, ...patch }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(draft);
  };
  const options = <V extends string>(values: readonly V[], key: (v: V) => TPkPolicyKey) =>
    values.map((v) => (
      <option key={v} value={v}>
        {k(key(v))}
      </option>
    ));
  return (
    <form ref={formRef} className="policy-form" onSubmit={submit} noValidate>
      <fieldset>
        <legend>{k("pkpolicy.registration")}</legend>
        <CheckboxField label={k("pkpolicy.offered")} checked={draft.offered} onChange={(e) => set({ offered: e.target.checked })} error={errors.offered} />
        <CheckboxField label={k("pkpolicy.requiredForAdmins")} checked={draft.requiredForAdmins} onChange={(e) => set({ requiredForAdmins: e.target.checked })} error={errors.requiredForAdmins} />
        <p className="muted">{k("pkpolicy.requiredHint")}</p>
        <SelectField label={k("pkpolicy.attachment")} value={draft.attachment} onChange={(e) => set({ attachment: e.target.value as TPolicy["attachment"] })}>
          {options(["any", "platform", "cross-platform"] as const, (v) => `pkpolicy.attachment.${v}`)}
        </SelectField>
        <SelectField label={k("pkpolicy.userVerification")} value={draft.userVerification} onChange={(e) => set({ userVerification: e.target.value as TPolicy["userVerification"] })}>
          {options(["required", "preferred"] as const, (v) => `pkpolicy.uv.${v}`)}
        </SelectField>
      </fieldset>
      <fieldset>
        <legend>{k("pkpolicy.attestation")}</legend>
        <SelectField label={k("pkpolicy.attestationKind")} value={draft.attestation} onChange={(e) => set({ attestation: e.target.value as TPolicy["attestation"] })}>
          {options(["none", "direct"] as const, (v) => `pkpolicy.att.${v}`)}
        </SelectField>
        <h2 className="policy-subtitle">{k("pkpolicy.metadata")}</h2>
        <MetadataUpload metadata={metadata} />
        {draft.attestation === "direct" ? <ModelPicker metadata={metadata} allowed={draft.allowedAaguids} onChange={(allowedAaguids) => set({ allowedAaguids })} error={errors.allowedAaguids} /> : null}
      </fieldset>
      <div className="policy-form__actions">
        <Button type="submit" variant="primary" disabled={save.isPending} aria-busy={save.isPending}>
          {save.isPending ? k("pkpolicy.saving") : k("pkpolicy.save")}
        </Button>
      </div>
      <SaveOutcome save={save} savedText={k("pkpolicy.saved")} fieldErrors={errors} />
    </form>
  );
}

export function PasskeyPolicyScreen() {
  const k = usePasskeyPolicyText();
  const trpc = useTRPC();
  const data = useQuery(trpc.console.passkeyPolicy.get.queryOptions());
  return (
    <section className="policy">
      <h1 className="page-title">{k("pkpolicy.title")}</h1>
      <p className="muted policy__intro">{k("pkpolicy.intro")}</p>
      <QueryStates query={data} loading={k("pkpolicy.loading")}>
        {(d) => <PolicyForm initial={d.policy} metadata={d.metadata} />}
      </QueryStates>
    </section>
  );
}
