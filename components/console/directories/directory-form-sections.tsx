"use client";
import type { ChangeEvent } from "react";
import { CheckboxField, SelectField, TextAreaField, TextField } from "../../ui/field.tsx";
import { useDirText } from "./i18n.ts";
import type { TDirectoryValues } from "./directory-values.ts";

/*
 * The directory form's sections, one fieldset each, all over the same values: a new group of
 * settings is a new section here (and its values in directory-values.ts), not a longer form.
 */

export type TSectionProps = { values: TDirectoryValues; set: (patch: Partial<TDirectoryValues>) => void; errors: Record<string, string> };

type TTextKey = { [K in keyof TDirectoryValues]: TDirectoryValues[K] extends string ? K : never }[keyof TDirectoryValues];
const onText = (set: TSectionProps["set"], field: TTextKey) => (e: { target: { value: string } }) => set({ [field]: e.target.value });

/** Where the directory is and how it is reached: the address, TLS, the CA, the service account. */
export function ConnectionSection({ values, set, errors, editing }: TSectionProps & { editing: boolean }) {
  const d = useDirText();
  const readCa = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) set({ caCert: await file.text() });
  };
  return (
    <fieldset className="attr-fieldset">
      <legend className="ui-field__label">{d("form.connection")}</legend>
      <TextField label={d("form.url")} hint={d("form.urlHint")} value={values.url} onChange={onText(set, "url")} error={errors.url} autoComplete="off" spellCheck={false} required />
      <CheckboxField label={d("form.startTls")} checked={values.startTls} onChange={(e) => set({ startTls: e.target.checked })} error={errors.startTls} />
      <TextAreaField
        label={d("form.caCert")}
        hint={values.storedCa ? d("form.caStored") : d("form.caCertHint")}
        className="attr-mono"
        value={values.caCert}
        onChange={onText(set, "caCert")}
        error={errors.caCert}
        rows={3}
        spellCheck={false}
      />
      <TextField label={d("form.caFile")} type="file" accept=".pem,.crt,.cer,application/x-pem-file" onChange={(e) => void readCa(e)} />
      {values.storedCa ? <CheckboxField label={d("form.caRemove")} checked={values.removeCa} disabled={!!values.caCert.trim()} onChange={(e) => set({ removeCa: e.target.checked })} /> : null}
      <div className="client-form__row">
        <TextField label={d("form.bindDn")} value={values.bindDn} onChange={onText(set, "bindDn")} error={errors.bindDn} autoComplete="off" spellCheck={false} required />
        <TextField
          label={d("form.bindPassword")}
          hint={editing ? d("form.bindPasswordKeep") : undefined}
          type="password"
          value={values.bindPassword}
          onChange={onText(set, "bindPassword")}
          error={errors.bindPassword}
          autoComplete="new-password"
          required={!editing}
        />
      </div>
    </fieldset>
  );
}

/** Which entries are people, and what identifies each. */
export function PeopleSection({ values, set, errors }: TSectionProps) {
  const d = useDirText();
  const field = (name: "baseDn" | "userFilter" | "loginAttribute" | "idAttribute" | "disabledFilter", required = true) => (
    <TextField label={d(`form.${name}`)} hint={d(`form.${name}Hint`)} value={values[name]} onChange={onText(set, name)} error={errors[name]} autoComplete="off" spellCheck={false} required={required} />
  );
  return (
    <fieldset className="attr-fieldset">
      <legend className="ui-field__label">{d("form.people")}</legend>
      {field("baseDn")}
      {field("userFilter")}
      <div className="client-form__row">
        {field("loginAttribute")}
        {field("idAttribute")}
      </div>
      {field("disabledFilter", false)}
    </fieldset>
  );
}

/** On demand or synchronised, and how a synchronisation goes. */
export function ModeSection({ values, set, errors }: TSectionProps) {
  const d = useDirText();
  return (
    <fieldset className="attr-fieldset">
      <legend className="ui-field__label">{d("form.sync")}</legend>
      <SelectField label={d("form.mode")} value={values.mode} onChange={(e) => set({ mode: e.target.value as TDirectoryValues["mode"] })} error={errors.mode}>
        <option value="on_demand">{d("form.mode.on_demand")}</option>
        <option value="synchronised">{d("form.mode.synchronised")}</option>
      </SelectField>
      {values.mode === "synchronised" ? (
        <div className="client-form__row">
          <TextField label={d("form.syncInterval")} hint={d("form.syncIntervalHint")} inputMode="numeric" value={values.syncIntervalS} onChange={onText(set, "syncIntervalS")} error={errors.syncIntervalS} autoComplete="off" />
          <SelectField label={d("form.missingPolicy")} value={values.missingPolicy} onChange={(e) => set({ missingPolicy: e.target.value as TDirectoryValues["missingPolicy"] })} error={errors.missingPolicy}>
            <option value="lock">{d("form.missing.lock")}</option>
            <option value="delete">{d("form.missing.delete")}</option>
            <option value="keep">{d("form.missing.keep")}</option>
          </SelectField>
          <SelectField label={d("form.changeAttribute")} value={values.changeAttribute} onChange={(e) => set({ changeAttribute: e.target.value as TDirectoryValues["changeAttribute"] })} error={errors.changeAttribute}>
            <option value="modifyTimestamp">{d("form.change.modifyTimestamp")}</option>
            <option value="uSNChanged">{d("form.change.uSNChanged")}</option>
          </SelectField>
        </div>
      ) : null}
    </fieldset>
  );
}
