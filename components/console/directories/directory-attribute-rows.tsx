"use client";
import { CheckboxField, SelectField, TextField } from "../../ui/field.tsx";
import { RuleRows } from "../rule-rows.tsx";
import { useDirText } from "./i18n.ts";
import { EMPTY_RULE, type TRuleValues } from "./directory-values.ts";

type TProps = { rules: TRuleValues[]; onChange: (rules: TRuleValues[]) => void; error?: string };

/** The attribute rules, one row each: a directory attribute, the catalog attribute it fills, its transform, and whether it is confirmed. */
export function DirectoryAttributeRows({ rules, onChange, error }: TProps) {
  const d = useDirText();
  return (
    <RuleRows
      legend={d("form.attributes")}
      hint={d("form.attributesHint")}
      error={error}
      rules={rules}
      onChange={onChange}
      empty={EMPTY_RULE}
      rowClassName="dir-rule"
      rowLabel={(n) => d("form.rule", { n: String(n) })}
      addLabel={d("form.rule.add")}
      removeLabel={d("form.rule.remove")}
      fields={(rule, set) => (
        <>
          <TextField label={d("form.rule.from")} value={rule.from} onChange={(e) => set({ from: e.target.value })} autoComplete="off" spellCheck={false} />
          <TextField label={d("form.rule.to")} value={rule.to} onChange={(e) => set({ to: e.target.value })} autoComplete="off" spellCheck={false} />
          <SelectField label={d("form.rule.transform")} value={rule.transform} onChange={(e) => set({ transform: e.target.value as TRuleValues["transform"] })}>
            <option value="">{d("form.rule.transform.none")}</option>
            <option value="email">{d("form.rule.transform.email")}</option>
            <option value="phone">{d("form.rule.transform.phone")}</option>
            <option value="lowercase">{d("form.rule.transform.lowercase")}</option>
          </SelectField>
          <CheckboxField label={d("form.rule.verified")} checked={rule.verified} onChange={(e) => set({ verified: e.target.checked })} />
        </>
      )}
    />
  );
}
