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

/** Whether a password change here is written to the directory, and how. */
export function PasswordSection({ values, set, errors }: TSectionProps) {
  const d = useDirText();
  return (
    <fieldset className="attr-fieldset">
      <legend className="ui-field__label">{d("form.password")}</legend>
      <div className="client-form__row">
        <SelectField label={d("form.passwordChange")} hint={d("form.passwordChangeHint")} value={values.passwordChange} onChange={(e) => set({ passwordChange: e.target.value as TDirectoryValues["passwordChange"] })} error={errors.passwordChange}>
          <option value="off">{d("form.passwordChange.off")}</option>
          <option value="self">{d("form.passwordChange.self")}</option>
          <option value="self_and_reset">{d("form.passwordChange.self_and_reset")}</option>
        </SelectField>
        {values.passwordChange !== "off" ? (
          <SelectField label={d("form.passwordProtocol")} value={values.passwordProtocol} onChange={(e) => set({ passwordProtocol: e.target.value as TDirectoryValues["passwordProtocol"] })} error={errors.passwordProtocol}>
            <option value="rfc3062">{d("form.protocol.rfc3062")}</option>
            <option value="active_directory">{d("form.protocol.active_directory")}</option>
          </SelectField>
        ) : null}
      </div>
    </fieldset>
  );
}

/** Which of the directory's groups become groups here, and how their members are read. */
export function GroupsSection({ values, set, errors }: TSectionProps) {
  const d = useDirText();
  const text = (field: TTextKey, label: Parameters<typeof d>[0], hint?: Parameters<typeof d>[0]) => (
    <TextField label={d(label)} hint={hint ? d(hint) : undefined} value={values[field]} onChange={onText(set, field)} error={errors[`groups.${GROUP_FIELD[field] ?? field}`]} autoComplete="off" spellCheck={false} />
  );
  return (
    <fieldset className="attr-fieldset">
      <legend className="ui-field__label">{d("form.groups")}</legend>
      <CheckboxField label={d("form.groupsOn")} checked={values.groupsOn} onChange={(e) => set({ groupsOn: e.target.checked })} />
      {values.groupsOn ? (
        <>
          <div className="client-form__row">
            {text("groupsBaseDn", "form.groupsBaseDn")}
            {text("groupsFilter", "form.groupsFilter")}
          </div>
          <div className="client-form__row">
            {text("groupsName", "form.groupsName")}
            {text("groupsMember", "form.groupsMember")}
            <SelectField label={d("form.groupsNesting")} value={values.groupsNesting} onChange={(e) => set({ groupsNesting: e.target.value as TDirectoryValues["groupsNesting"] })} error={errors["groups.nesting"]}>
              <option value="none">{d("form.nesting.none")}</option>
              <option value="expand">{d("form.nesting.expand")}</option>
              <option value="in_chain">{d("form.nesting.in_chain")}</option>
            </SelectField>
          </div>
          <div className="client-form__row">
            {text("groupsProfile", "form.groupsProfile")}
            {text("groupsIdPrefix", "form.groupsIdPrefix", "form.groupsIdPrefixHint")}
          </div>
          <TextAreaField label={d("form.groupsOnly")} hint={d("form.groupsOnlyHint")} rows={3} value={values.groupsOnly} onChange={onText(set, "groupsOnly")} error={errors["groups.only"]} />
        </>
      ) : null}
    </fieldset>
  );
}

// The form's names of the groups block's fields, as the server's refusals name them.
const GROUP_FIELD: Partial<Record<TTextKey, string>> = {
  groupsBaseDn: "baseDn",
  groupsFilter: "filter",
  groupsName: "nameAttribute",
  groupsMember: "memberAttribute",
  groupsProfile: "profile",
  groupsIdPrefix: "idPrefix",
};
