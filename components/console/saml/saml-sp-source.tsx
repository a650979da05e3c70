"use client";
import type { ChangeEvent } from "react";
import { TextAreaField, TextField } from "../../ui/field.tsx";
import { useSamlText } from "./i18n.ts";
import type { TSource, TSpValues } from "./saml-sp-values.ts";

type TProps = { values: TSpValues; set: (patch: Partial<TSpValues>) => void; errors: Record<string, string> };

const SOURCES: TSource[] = ["metadata", "url", "hand"];

/** Where the application's endpoints and certificates come from: metadata pasted or read from a file, its URL, or typed by hand. */
export function SamlSpSource({ values, set, errors }: TProps) {
  const s = useSamlText();
  const text = (field: keyof TSpValues) => (e: { target: { value: string } }) => set({ [field]: e.target.value });
  const readFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) set({ metadataXml: await file.text() });
  };
  return (
    <>
      <fieldset className="saml-source">
        <legend className="ui-field__label">{s("form.source")}</legend>
        {SOURCES.map((source) => (
          <label key={source} className="ui-field ui-field--check">
            <input type="radio" className="ui-check" name="saml-source" checked={values.source === source} onChange={() => set({ source })} />
            <span className="ui-field__label">{s(`form.source.${source}`)}</span>
          </label>
        ))}
      </fieldset>
      {values.source === "metadata" ? (
        <>
          <TextAreaField label={s("form.metadata")} hint={s("form.metadataHint")} value={values.metadataXml} onChange={text("metadataXml")} error={errors.metadataXml} rows={8} spellCheck={false} required />
          <TextField label={s("form.file")} type="file" accept=".xml,application/xml,text/xml,application/samlmetadata+xml" onChange={(e) => void readFile(e)} />
        </>
      ) : null}
      {values.source === "url" ? (
        <TextField label={s("form.url")} hint={s("form.urlHint")} type="url" value={values.metadataUrl} onChange={text("metadataUrl")} error={errors.metadataUrl} autoComplete="off" spellCheck={false} required />
      ) : null}
      {values.source === "hand" ? (
        <>
          <TextField label={s("form.entityId")} value={values.entityId} onChange={text("entityId")} error={errors.entityId} autoComplete="off" spellCheck={false} required />
          <TextAreaField label={s("form.acsUrls")} hint={s("form.acsUrlsHint")} value={values.acsUrls} onChange={text("acsUrls")} error={errors.acsUrls} rows={2} spellCheck={false} required />
          <TextAreaField label={s("form.signingCerts")} hint={s("form.signingCertsHint")} className="attr-mono" value={values.signingCerts} onChange={text("signingCerts")} error={errors.signingCerts} rows={4} spellCheck={false} />
          <TextField label={s("form.slo")} hint={s("form.sloHint")} value={values.singleLogoutUrl} onChange={text("singleLogoutUrl")} error={errors.singleLogoutUrl} autoComplete="off" spellCheck={false} />
          <TextAreaField label={s("form.encryptionCert")} hint={s("form.encryptionCertHint")} className="attr-mono" value={values.encryptionCert} onChange={text("encryptionCert")} error={errors.encryptionCert} rows={3} spellCheck={false} />
        </>
      ) : null}
    </>
  );
}
