"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState, type FormEvent } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { useI18n } from "../../i18n-provider.tsx";
import { CheckboxField, SelectField, TextField } from "../../ui/field.tsx";
import { FormActions } from "../../ui/form-actions.tsx";
import { appCodeOf, fieldErrorsOf, messageOf } from "../call-errors.ts";
import { parseList } from "../list-text.ts";
import { useTRPC } from "../trpc.ts";
import { useAttributesText } from "./i18n.ts";
import { useFocusFirstError } from "../../ui/use-focus-first-error.ts";

/** A catalog entry as the console receives it, with whether the service relies on it. */
export type TCatalogEntry = inferRouterOutputs<AppRouter>["console"]["attributes"]["list"][number];

const TYPES = ["string", "boolean", "number", "date", "phone", "email", "string_list"] as const;
const FORMATS = ["uri", "uuid", "digits"] as const;
const FLAGS = ["required", "unique", "unmodifiable", "searchable"] as const;
const LENGTHS = ["minLength", "maxLength"] as const;

function initialValues(def?: TCatalogEntry) {
  const v = def?.validators ?? {};
  return {
    name: def?.name ?? "",
    type: def?.type ?? "string",
    required: def?.required ?? false,
    unique: def?.unique ?? false,
    unmodifiable: def?.unmodifiable ?? false,
    searchable: def?.searchable ?? false,
    minLength: v.minLength === undefined ? "" : String(v.minLength),
    maxLength: v.maxLength === undefined ? "" : String(v.maxLength),
    pattern: v.pattern ?? "",
    format: v.format ?? "",
    aliases: (def?.aliases ?? []).join(", "),
  };
}
type TValues = ReturnType<typeof initialValues>;

/** Text that is not a whole number goes as typed, so the server's check names the field. */
const lengthOf = (text: string) => (text.trim() === "" ? undefined : /^\d+$/.test(text.trim()) ? Number(text) : text);

function toDefinition(v: TValues) {
  return {
    name: v.name.trim(),
    type: v.type,
    required: v.required,
    unique: v.unique,
    unmodifiable: v.unmodifiable,
    searchable: v.searchable,
    validators: { minLength: lengthOf(v.minLength), maxLength: lengthOf(v.maxLength), pattern: v.pattern || undefined, format: v.format || undefined },
    aliases: parseList(v.aliases, "scopes"),
  };
}

type TProps = { def?: TCatalogEntry; onSaved: (name: string) => void; onCancel: () => void };

/** Create and edit share one form; the service replaces the whole definition and checks it with the import's schema. */
export function AttributeDefForm({ def, onSaved, onCancel }: TProps) {
  const { t } = useI18n();
  const a = useAttributesText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(() => initialValues(def));
  const save = useMutation(
    trpc.console.attributes.save.mutationOptions({
      onSuccess: (saved) => {
        void queryClient.invalidateQueries(trpc.console.attributes.list.pathFilter());
        onSaved(saved.name);
      },
    }),
  );
  const errors = save.error ? fieldErrorsOf(save.error, t) : {};
  const formRef = useFocusFirstError<HTMLFormElement>(save.error);
  const code = appCodeOf(save.error);
  if (code === "attribute.alias_taken") errors.aliases = a("form.aliasTaken", { detail: save.error?.message ?? "" });
  const alert = code === "attribute.builtin" ? a("form.builtin") : Object.keys(errors).length ? a("form.fixErrors") : save.error ? messageOf(save.error, t) : null;

  const set = (field: keyof TValues) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(toDefinition(values));
  };

  return (
    <form ref={formRef} className="client-form" onSubmit={submit} noValidate aria-busy={save.isPending}>
      {alert ? (
        <p className="ui-alert ui-alert--error" role="alert">
          {alert}
        </p>
      ) : null}
      <div className="client-form__row">
        <TextField label={a("form.name")} hint={a("form.nameHint")} value={values.name} onChange={set("name")} error={errors.name} readOnly={!!def} autoComplete="off" spellCheck={false} required />
        <SelectField label={a("form.type")} hint={def?.builtin ? a("form.builtinType") : undefined} value={values.type} onChange={set("type")} error={errors.type} disabled={def?.builtin}>
          {TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </SelectField>
      </div>
      <fieldset className="attr-fieldset">
        <legend className="ui-field__label">{a("attrs.col.flags")}</legend>
        {FLAGS.map((flag) => (
          <CheckboxField key={flag} label={a(`form.${flag}`)} checked={values[flag]} error={errors[flag]} onChange={(e) => setValues((v) => ({ ...v, [flag]: e.target.checked }))} />
        ))}
      </fieldset>
      <fieldset className="attr-fieldset">
        <legend className="ui-field__label">{a("form.validators")}</legend>
        <div className="client-form__row">
          {LENGTHS.map((k) => (
            <TextField key={k} label={a(`form.${k}`)} inputMode="numeric" value={values[k]} onChange={set(k)} error={errors[`validators.${k}`]} autoComplete="off" />
          ))}
          <TextField label={a("form.pattern")} value={values.pattern} onChange={set("pattern")} error={errors["validators.pattern"]} autoComplete="off" spellCheck={false} className="attr-mono" />
          <SelectField label={a("form.format")} value={values.format} onChange={set("format")} error={errors["validators.format"]}>
            <option value="">{a("form.formatNone")}</option>
            {FORMATS.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </SelectField>
        </div>
      </fieldset>
      <TextField label={a("form.aliases")} hint={a("form.aliasesHint")} value={values.aliases} onChange={set("aliases")} error={errors.aliases} autoComplete="off" spellCheck={false} />
      <FormActions pending={save.isPending} cancelLabel={a("attrs.cancel")} submitLabel={def ? a("form.save") : a("form.create")} pendingLabel={a("form.saving")} onCancel={onCancel} />
    </form>
  );
}
