"use client";
import { SelectField, TextField } from "../../ui/field.tsx";
import { RuleRows } from "../rule-rows.tsx";
import { useSamlText } from "./i18n.ts";
import { EMPTY_RULE, type TRuleValues } from "./saml-sp-values.ts";

type TProps = { rules: TRuleValues[]; onChange: (rules: TRuleValues[]) => void; error?: string };

/** The attributes the application is sent, one row each: its name there, where the value comes from, and how it is named. */
export function SamlAttributeRows({ rules, onChange, error }: TProps) {
  const s = useSamlText();
  return (
    <RuleRows
      legend={s("form.attributes")}
      hint={s("form.attributesHint")}
      error={error}
      rules={rules}
      onChange={onChange}
      empty={EMPTY_RULE}
      rowClassName="saml-rule"
      rowLabel={(n) => s("form.rule", { n: String(n) })}
      addLabel={s("form.rule.add")}
      removeLabel={s("form.rule.remove")}
      fields={(rule, set) => (
        <>
          <TextField label={s("form.rule.name")} value={rule.name} onChange={(e) => set({ name: e.target.value })} autoComplete="off" spellCheck={false} />
          <TextField label={s("form.rule.from")} value={rule.from} onChange={(e) => set({ from: e.target.value })} autoComplete="off" spellCheck={false} />
          <TextField label={s("form.rule.friendly")} value={rule.friendlyName} onChange={(e) => set({ friendlyName: e.target.value })} autoComplete="off" spellCheck={false} />
          <SelectField label={s("form.rule.format")} value={rule.nameFormat} onChange={(e) => set({ nameFormat: e.target.value as TRuleValues["nameFormat"] })}>
            <option value="">{s("form.rule.formatNone")}</option>
            <option value="basic">basic</option>
            <option value="uri">uri</option>
            <option value="unspecified">unspecified</option>
          </SelectField>
        </>
      )}
    />
  );
}
