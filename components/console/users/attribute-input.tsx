"use client";
import type { Dispatch, ReactNode, SetStateAction } from "react";
import { CheckboxField, SelectField, TextAreaField, TextField } from "../../ui/field.tsx";
import type { TDraft, TDrafts } from "./attribute-drafts.ts";
import { attributeLabel, useUsersText } from "./i18n.ts";
import type { TAttributeDefView } from "./types.ts";

type TProps = {
  def: TAttributeDefView;
  draft: TDraft;
  onChange: (next: TDraft) => void;
  /** Errors keyed as fieldErrorsOf keys them: the attribute name, or "email.vrf" for a flag. */
  errors: Record<string, string>;
  readOnly?: boolean;
  hint?: string;
};

const INPUT_TYPE: Partial<Record<TAttributeDefView["type"], string>> = { number: "text", date: "date", email: "email", phone: "tel" };
const AUTOCOMPLETE: Record<string, string> = { family_name: "family-name", given_name: "given-name", middle_name: "additional-name" };

/** One catalog attribute as a control that fits its type; contacts add their "confirmed" flag. */
export function AttributeInput({ def, draft, onChange, errors, readOnly, hint }: TProps) {
  const u = useUsersText();
  const label = attributeLabel(u, def.name);
  const shown = label === def.name ? hint : [def.name, hint].filter(Boolean).join(" · ");
  const common = { name: def.name, label, error: errors[def.name], hint: shown || undefined, required: def.required && def.name !== "sub" };
  const text = (e: { target: { value: string } }) => onChange({ ...draft, text: e.target.value });

  if (def.type === "boolean") {
    return (
      <SelectField {...common} value={draft.text} onChange={text} disabled={readOnly}>
        <option value="">{u("attr.notSet")}</option>
        <option value="true">{u("attr.yes")}</option>
        <option value="false">{u("attr.no")}</option>
      </SelectField>
    );
  }
  if (def.type === "string_list") {
    return <TextAreaField {...common} hint={[shown, u("attr.listHint")].filter(Boolean).join(" · ")} rows={3} value={draft.text} onChange={text} readOnly={readOnly} />;
  }
  const input = (
    <TextField
      {...common}
      type={INPUT_TYPE[def.type] ?? "text"}
      inputMode={def.type === "number" ? "decimal" : undefined}
      autoComplete={AUTOCOMPLETE[def.name] ?? "off"}
      spellCheck={false}
      value={draft.text}
      onChange={text}
      readOnly={readOnly}
    />
  );
  if (def.type !== "email" && def.type !== "phone") return input;
  return (
    <div className="attr-contact">
      {input}
      <CheckboxField
        label={u("attr.confirmed", { label })}
        checked={draft.vrf}
        error={errors[`${def.name}.vrf`]}
        onChange={(e) => onChange({ ...draft, vrf: e.target.checked })}
        disabled={readOnly}
      />
    </div>
  );
}

type TFieldsProps = {
  defs: TAttributeDefView[];
  drafts: TDrafts;
  setDrafts: Dispatch<SetStateAction<TDrafts>>;
  errors: Record<string, string>;
  /** Per attribute: read-only, and a hint under the control. */
  shape?: (def: TAttributeDefView) => { readOnly?: boolean; hint?: string };
  /** Further controls in the same grid (the new account's password). */
  children?: ReactNode;
};

/** The catalog's attributes as a grid of controls, in catalog order. */
export function AttributeFields({ defs, drafts, setDrafts, errors, shape, children }: TFieldsProps) {
  return (
    <div className="user-form__grid">
      {defs.map((def) => (
        <AttributeInput
          key={def.name}
          def={def}
          draft={drafts[def.name] ?? { text: "", vrf: false }}
          onChange={(next) => setDrafts((d) => ({ ...d, [def.name]: next }))}
          errors={errors}
          {...shape?.(def)}
        />
      ))}
      {children}
    </div>
  );
}
