"use client";
import { useI18n } from "../i18n-provider.tsx";
import { CheckboxField, TextAreaField, TextField } from "../ui/field.tsx";

export const GRANT_TYPES = ["client_credentials", "authorization_code", "refresh_token"] as const;
export type TGrantTypeValue = (typeof GRANT_TYPES)[number];
const LIFETIMES = ["accessToken", "refreshToken", "idToken"] as const;
type TLifetime = (typeof LIFETIMES)[number];

/** The OAuth 2.0 / OpenID Connect part of a client: how it obtains tokens and for how long. */
export type TProtocolValues = {
  firstParty: boolean;
  pkceOptional: boolean;
  grantTypes: TGrantTypeValue[];
  postLogoutRedirectUris: string;
  lifetimes: Record<TLifetime, string>;
};

type TProps = {
  values: TProtocolValues;
  /** Shown read-only: a client's type is fixed when it is created. */
  type: "confidential" | "public";
  errors: Record<string, string | undefined>;
  onChange: (next: TProtocolValues) => void;
};

/** "" means the server's default; anything else is sent as a number for the server to check. */
export function lifetimesOut(l: Record<TLifetime, string>): Partial<Record<TLifetime, number>> {
  return Object.fromEntries(LIFETIMES.filter((k) => l[k].trim() !== "").map((k) => [k, Number(l[k])]));
}

export function ClientProtocolFields({ values, type, errors, onChange }: TProps) {
  const { t } = useI18n();
  const toggle = (g: TGrantTypeValue, on: boolean) =>
    onChange({ ...values, grantTypes: on ? [...values.grantTypes, g] : values.grantTypes.filter((x) => x !== g) });
  return (
    <fieldset className="client-form__group">
      <legend className="ui-field__label">{t("form.protocol")}</legend>
      <p className="ui-field__hint">
        {t("form.type")}: <strong>{t(type === "public" ? "form.typePublic" : "form.typeConfidential")}</strong>
      </p>
      <CheckboxField
        label={t("form.firstParty")}
        name="firstParty"
        checked={values.firstParty}
        error={errors.firstParty}
        onChange={(e) => onChange({ ...values, firstParty: e.target.checked })}
      />
      {type === "confidential" ? (
        <CheckboxField
          label={t("form.pkceOptional")}
          name="pkceOptional"
          checked={values.pkceOptional}
          error={errors.pkceOptional}
          onChange={(e) => onChange({ ...values, pkceOptional: e.target.checked })}
        />
      ) : null}
      <div role="group" aria-label={t("form.grantTypes")}>
        <span className="ui-field__label">{t("form.grantTypes")}</span>
        {GRANT_TYPES.map((g) => (
          <CheckboxField key={g} label={g} name={`grant-${g}`} checked={values.grantTypes.includes(g)} onChange={(e) => toggle(g, e.target.checked)} />
        ))}
        {errors.grantTypes ? (
          <p className="ui-field__error" role="alert">
            {errors.grantTypes}
          </p>
        ) : null}
      </div>
      <TextAreaField
        label={t("form.postLogoutRedirectUris")}
        hint={t("form.listHint")}
        rows={2}
        spellCheck={false}
        name="postLogoutRedirectUris"
        value={values.postLogoutRedirectUris}
        error={errors.postLogoutRedirectUris}
        onChange={(e) => onChange({ ...values, postLogoutRedirectUris: e.target.value })}
      />
      <div className="client-form__row">
        {LIFETIMES.map((k) => (
          <TextField
            key={k}
            label={t(`form.lifetime.${k}`)}
            hint={t("form.lifetimeHint")}
            inputMode="numeric"
            name={`lifetime-${k}`}
            value={values.lifetimes[k]}
            error={errors[`tokenLifetimes.${k}`]}
            onChange={(e) => onChange({ ...values, lifetimes: { ...values.lifetimes, [k]: e.target.value } })}
          />
        ))}
      </div>
    </fieldset>
  );
}
