"use client";
import { SelectField, TextAreaField, TextField } from "../../ui/field.tsx";
import type { TDraft } from "../../console/users/attribute-drafts.ts";
import { attributeLabel, useProfileText } from "./i18n.ts";
import type { TProfileField } from "./types.ts";

const AUTOCOMPLETE: Record<string, string> = { family_name: "family-name", given_name: "given-name", middle_name: "additional-name", birthdate: "bday" };

type TProps = { field: TProfileField; draft: TDraft; onChange: (next: TDraft) => void; error?: string };

/**
 * One attribute of the profile as a control that fits its type. What the portal may not change is
 * shown read-only with a word why. The server's checks are the only checks (they speak through
 * `error`), so the control does not cap lengths the catalog may change.
 */
export function ProfileField({ field, draft, onChange, error }: TProps) {
  const u = useProfileText();
  const readOnly = !field.editable;
  const common = {
    name: field.name,
    label: attributeLabel(u, field.name),
    error,
    hint: field.owned ? u("profile.owned") : readOnly ? u("profile.notEditable") : undefined,
    required: field.required,
  };
  const text = (e: { target: { value: string } }) => onChange({ ...draft, text: e.target.value });
  switch (field.type) {
    case "boolean":
      return (
        <SelectField {...common} value={draft.text} onChange={text} disabled={readOnly}>
          <option value="">{u("profile.notSet")}</option>
          <option value="true">{u("profile.yes")}</option>
          <option value="false">{u("profile.no")}</option>
        </SelectField>
      );
    case "string_list":
      return <TextAreaField {...common} hint={common.hint ?? u("profile.listHint")} rows={3} value={draft.text} onChange={text} readOnly={readOnly} />;
    default:
      return (
        <TextField
          {...common}
          type={field.type === "date" ? "date" : "text"}
          inputMode={field.type === "number" ? "decimal" : undefined}
          autoComplete={AUTOCOMPLETE[field.name] ?? "off"}
          value={draft.text}
          onChange={text}
          readOnly={readOnly}
        />
      );
  }
}
