"use client";
import { useClientsText } from "./i18n.ts";

export const KINDS = ["web", "spa", "m2m"] as const;
export type TKind = (typeof KINDS)[number];

/** What each kind starts with; the form's protocol fields can still change the grant types. */
export const KIND_DEFAULTS: Record<TKind, { type: "confidential" | "public"; grantTypes: ("client_credentials" | "authorization_code" | "refresh_token")[] }> = {
  web: { type: "confidential", grantTypes: ["authorization_code", "refresh_token"] },
  spa: { type: "public", grantTypes: ["authorization_code"] },
  m2m: { type: "confidential", grantTypes: ["client_credentials"] },
};

/** The first question of a new application: which kind it is, each with a line on what that means. */
export function KindPicker({ value, onChange }: { value: TKind; onChange: (kind: TKind) => void }) {
  const c = useClientsText();
  return (
    <fieldset className="kind-picker">
      <legend className="ui-field__label">{c("kind.legend")}</legend>
      {KINDS.map((kind) => (
        <label key={kind} className={`kind-picker__option${value === kind ? " kind-picker__option--on" : ""}`}>
          <input type="radio" name="kind" value={kind} checked={value === kind} onChange={() => onChange(kind)} aria-describedby={`kind-${kind}-hint`} />
          <span className="kind-picker__text">
            <strong>{c(`kind.${kind}`)}</strong>
            <span id={`kind-${kind}-hint`} className="ui-field__hint">
              {c(`kind.${kind}.hint`)}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
