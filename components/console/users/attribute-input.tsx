"use client";
import { CheckboxField, SelectField, TextAreaField, TextField } from "../../ui/field.tsx";
import type { TDraft } from "./attribute-drafts.ts";
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
