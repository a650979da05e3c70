"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type ChangeEvent, type FormEvent } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { CheckboxField, TextAreaField, TextField } from "../../ui/field.tsx";
import { FormActions } from "../../ui/form-actions.tsx";
import { FormAlert } from "../../ui/form-alert.tsx";
import { useFocusFirstError } from "../../ui/use-focus-first-error.ts";
import { appCodeOf, fieldErrorsOf, messageOf } from "../call-errors.ts";
import { useTRPC } from "../trpc.ts";
import { useSamlText } from "./i18n.ts";

type TProps = { onAdded: (name: string) => void; onCancel: () => void };

/** A SAML application from the metadata it offers: pasted, or read from the file the administrator picks. */
export function SamlSpForm({ onAdded, onCancel }: TProps) {
  const { t } = useI18n();
  const s = useSamlText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [values, setValues] = useState({ id: "", name: "", metadataXml: "", metadataUrl: "", requireSignedRequests: true, allowIdpInitiated: false });
  const create = useMutation(
    trpc.console.samlSps.create.mutationOptions({
      onSuccess: (sp) => {
        void queryClient.invalidateQueries(trpc.console.samlSps.pathFilter());
        onAdded(sp.name);
      },
    }),
  );
  const errors = create.error ? fieldErrorsOf(create.error, t) : {};
  const code = appCodeOf(create.error);
  if (code === "saml.sp_exists") errors.id = s("form.exists");
  // What is wrong with the metadata belongs next to it.
  // The reason is the server's (it names the element or rule), in its words.
  if (code === "saml.metadata_invalid" || code === "saml.xml_refused" || code === "saml.signature_invalid") {
    errors[values.metadataUrl.trim() ? "metadataUrl" : "metadataXml"] = s("form.metadataRefused", { reason: create.error!.message });
  }
  const formRef = useFocusFirstError<HTMLFormElement>(create.error);
  const alert = Object.keys(errors).length ? s("form.fixErrors") : create.error ? messageOf(create.error, t) : null;

  const set = (field: "id" | "name" | "metadataXml" | "metadataUrl") => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  const readFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) setValues((v) => ({ ...v, metadataXml: "" }));
    if (file) {
      const text = await file.text();
      setValues((v) => ({ ...v, metadataXml: text }));
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // The URL when one is typed, else the pasted document.
    const { metadataXml, metadataUrl, ...rest } = values;
    const source = metadataUrl.trim() ? { metadataUrl: metadataUrl.trim() } : { metadataXml };
    create.mutate({ ...rest, ...source, id: values.id.trim(), name: values.name.trim() });
  };

  return (
    <form ref={formRef} className="client-form" onSubmit={submit} noValidate aria-busy={create.isPending}>
      <FormAlert text={alert} />
      <div className="client-form__row">
        <TextField label={s("form.id")} hint={s("form.idHint")} value={values.id} onChange={set("id")} error={errors.id} autoComplete="off" spellCheck={false} required />
        <TextField label={s("form.name")} hint={s("form.nameHint")} value={values.name} onChange={set("name")} error={errors.name} autoComplete="off" required />
      </div>
      <TextAreaField label={s("form.metadata")} hint={s("form.metadataHint")} value={values.metadataXml} onChange={set("metadataXml")} error={errors.metadataXml} rows={8} spellCheck={false} required />
      <TextField label={s("form.url")} hint={s("form.urlHint")} type="url" value={values.metadataUrl} onChange={set("metadataUrl")} error={errors.metadataUrl} autoComplete="off" spellCheck={false} />
      <TextField label={s("form.file")} type="file" accept=".xml,application/xml,text/xml,application/samlmetadata+xml" onChange={(e) => void readFile(e)} />
      <fieldset className="attr-fieldset">
        <CheckboxField label={s("form.signed")} checked={values.requireSignedRequests} onChange={(e) => setValues((v) => ({ ...v, requireSignedRequests: e.target.checked }))} />
        <CheckboxField label={s("form.idpInit")} checked={values.allowIdpInitiated} onChange={(e) => setValues((v) => ({ ...v, allowIdpInitiated: e.target.checked }))} />
      </fieldset>
      <FormActions pending={create.isPending} cancelLabel={s("saml.cancel")} submitLabel={s("form.add")} pendingLabel={s("form.adding")} onCancel={onCancel} />
    </form>
  );
}
