"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { CheckboxField, SelectField, TextField } from "../../ui/field.tsx";
import { FormActions } from "../../ui/form-actions.tsx";
import { FormAlert } from "../../ui/form-alert.tsx";
import { useFocusFirstError } from "../../ui/use-focus-first-error.ts";
import { appCodeOf, fieldErrorsOf, messageOf } from "../call-errors.ts";
import { useTRPC } from "../trpc.ts";
import { useSamlText } from "./i18n.ts";
import { SamlAttributeRows } from "./saml-attribute-rows.tsx";
import { SamlSpSource } from "./saml-sp-source.tsx";
import { EMPTY_VALUES, toInput, type TSpValues } from "./saml-sp-values.ts";

type TProps = { initial?: TSpValues; onSaved: (name: string) => void; onCancel: () => void };

/**
 * A SAML application: where its endpoints and certificates come from, and what is done for it.
 * With `initial`, the saved settings of one to change (its ID stays); without, a new one.
 */
export function SamlSpForm({ initial, onSaved, onCancel }: TProps) {
  const { t } = useI18n();
  const s = useSamlText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const editing = initial !== undefined;
  const [values, setValues] = useState<TSpValues>(initial ?? EMPTY_VALUES);
  const set = (patch: Partial<TSpValues>) => setValues((v) => ({ ...v, ...patch }));
  const options = {
    onSuccess: (sp: { name: string }) => {
      void queryClient.invalidateQueries(trpc.console.samlSps.pathFilter());
      onSaved(sp.name);
    },
  };
  const create = useMutation(trpc.console.samlSps.create.mutationOptions(options));
  const update = useMutation(trpc.console.samlSps.update.mutationOptions(options));
  const call = editing ? update : create;

  const errors = call.error ? fieldErrorsOf(call.error, t) : {};
  if (appCodeOf(call.error) === "saml.sp_exists") errors[values.source === "hand" ? "entityId" : "id"] = s("form.exists");
  // The server's reason (it names the element or rule), in its words, beside the metadata it is about.
  for (const field of ["metadataXml", "metadataUrl"]) if (errors[field]) errors[field] = s("form.metadataRefused", { reason: errors[field] });
  const formRef = useFocusFirstError<HTMLFormElement>(call.error);
  const alert = Object.keys(errors).length ? s("form.fixErrors") : call.error ? messageOf(call.error, t) : null;
  const text = (field: "id" | "name" | "defaultRelayState") => (e: { target: { value: string } }) => set({ [field]: e.target.value });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    call.mutate(toInput(values));
  };

  return (
    <form ref={formRef} className="client-form" onSubmit={submit} noValidate aria-busy={call.isPending}>
      <FormAlert text={alert} />
      <div className="client-form__row">
        <TextField label={s("form.id")} hint={editing ? s("form.idFixed") : s("form.idHint")} value={values.id} onChange={text("id")} error={errors.id} autoComplete="off" spellCheck={false} readOnly={editing} required />
        <TextField label={s("form.name")} hint={s("form.nameHint")} value={values.name} onChange={text("name")} error={errors.name} autoComplete="off" required />
      </div>
      <SamlSpSource values={values} set={set} errors={errors} />
      <fieldset className="attr-fieldset">
        <legend className="ui-field__label">{s("form.options")}</legend>
        <CheckboxField label={s("form.signed")} checked={values.requireSignedRequests} onChange={(e) => set({ requireSignedRequests: e.target.checked })} error={errors.requireSignedRequests} />
        <CheckboxField label={s("form.idpInit")} checked={values.allowIdpInitiated} onChange={(e) => set({ allowIdpInitiated: e.target.checked })} />
        <CheckboxField label={s("form.askConsent")} checked={values.askConsent} onChange={(e) => set({ askConsent: e.target.checked })} />
        <div className="client-form__row">
          <SelectField label={s("form.nameIdFormat")} value={values.nameIdFormat} onChange={(e) => set({ nameIdFormat: e.target.value as TSpValues["nameIdFormat"] })}>
            <option value="">{s("form.asMetadata")}</option>
            <option value="persistent">{s("form.nameId.persistent")}</option>
            <option value="email">{s("form.nameId.email")}</option>
            <option value="transient">{s("form.nameId.transient")}</option>
            <option value="unspecified">{s("form.nameId.unspecified")}</option>
          </SelectField>
          <SelectField label={s("form.encryption")} value={values.assertionEncryption} onChange={(e) => set({ assertionEncryption: e.target.value as TSpValues["assertionEncryption"] })} error={errors.assertionEncryption}>
            <option value="">{s("form.asMetadata")}</option>
            <option value="aes256-gcm">AES-256-GCM</option>
            <option value="aes128-gcm">AES-128-GCM</option>
            <option value="off">{s("form.encryption.off")}</option>
          </SelectField>
        </div>
        {values.allowIdpInitiated ? <TextField label={s("form.relayState")} hint={s("form.relayStateHint")} value={values.defaultRelayState} onChange={text("defaultRelayState")} error={errors.defaultRelayState} autoComplete="off" spellCheck={false} /> : null}
      </fieldset>
      <SamlAttributeRows rules={values.attributes} onChange={(attributes) => set({ attributes })} error={errors.attributes} />
      <FormActions
        pending={call.isPending}
        cancelLabel={s("saml.cancel")}
        submitLabel={editing ? s("form.save") : s("form.add")}
        pendingLabel={editing ? s("form.saving") : s("form.adding")}
        onCancel={onCancel}
      />
    </form>
  );
}
