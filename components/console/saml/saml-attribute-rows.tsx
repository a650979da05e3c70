"use client";
import { Button } from "../../ui/button.tsx";
import { SelectField, TextField } from "../../ui/field.tsx";
import { useSamlText } from "./i18n.ts";
import { EMPTY_RULE, type TRuleValues } from "./saml-sp-values.ts";

type TProps = { rules: TRuleValues[]; onChange: (rules: TRuleValues[]) => void; error?: string };

/** The attributes the application is sent, one row each: its name there, where the value comes from, and how it is named. */
export function SamlAttributeRows({ rules, onChange, error }: TProps) {
  const s = useSamlText();
  const set = (i: number, patch: Partial<TRuleValues>) => onChange(rules.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="attr-fieldset saml-rules">
      <legend className="ui-field__label">{s("form.attributes")}</legend>
      <p className="ui-field__hint">{s("form.attributesHint")}</p>
      {error ? (
        <p className="ui-field__error" role="alert">
          {error}
        </p>
      ) : null}
      {rules.map((rule, i) => (
        <div key={i} className="saml-rule" role="group" aria-label={s("form.rule", { n: String(i + 1) })}>
          <TextField label={s("form.rule.name")} value={rule.name} onChange={(e) => set(i, { name: e.target.value })} autoComplete="off" spellCheck={false} />
          <TextField label={s("form.rule.from")} value={rule.from} onChange={(e) => set(i, { from: e.target.value })} autoComplete="off" spellCheck={false} />
          <TextField label={s("form.rule.friendly")} value={rule.friendlyName} onChange={(e) => set(i, { friendlyName: e.target.value })} autoComplete="off" spellCheck={false} />
          <SelectField label={s("form.rule.format")} value={rule.nameFormat} onChange={(e) => set(i, { nameFormat: e.target.value as TRuleValues["nameFormat"] })}>
            <option value="">{s("form.rule.formatNone")}</option>
            <option value="basic">basic</option>
            <option value="uri">uri</option>
            <option value="unspecified">unspecified</option>
          </SelectField>
          <Button size="sm" variant="ghost" onClick={() => onChange(rules.filter((_, j) => j !== i))}>
            {s("form.rule.remove")}
            <span className="ui-visually-hidden"> {s("form.rule", { n: String(i + 1) })}</span>
          </Button>
        </div>
      ))}
      <div>
        <Button size="sm" onClick={() => onChange([...rules, EMPTY_RULE])}>
          {s("form.rule.add")}
        </Button>
      </div>
    </fieldset>
  );
}
