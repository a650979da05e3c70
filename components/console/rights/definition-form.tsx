"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import type { TObjectKind, TRightDefinition } from "@/server/rights/rights.schemas";
import { useI18n } from "../../i18n-provider.tsx";
import { CheckboxField, TextField } from "../../ui/field.tsx";
import { FormActions } from "../../ui/form-actions.tsx";
import { FormAlert } from "../../ui/form-alert.tsx";
import { appCodeOf, fieldErrorsOf } from "../call-errors.ts";
import { useTRPC } from "../trpc.ts";
import { useRightsText } from "./i18n.ts";
import { rightsMessageOf } from "./rights-errors.ts";
import { useFocusFirstError } from "../../ui/use-focus-first-error.ts";

type TKindField = "subjectKinds" | "objectKinds";
// rights.schemas' SUBJECT_KINDS and OBJECT_KINDS, written out: importing them would bring zod into the page.
const KINDS: Record<TKindField, readonly TObjectKind[]> = { subjectKinds: ["user", "application"], objectKinds: ["user", "group", "application"] };

function initialValues(def?: TRightDefinition) {
  return {
    name: def?.name ?? "",
    en: def?.description.en ?? "",
    ru: def?.description.ru ?? "",
    // Plain strings while edited; the server's schema checks them as kinds.
    subjectKinds: (def?.subjectKinds ?? ["user"]) as string[],
    objectKinds: (def?.objectKinds ?? ["user"]) as string[],
  };
}

type TProps = { def?: TRightDefinition; onSaved: (name: string) => void; onCancel: () => void };

/**
 * Create and edit share one form; the service replaces the whole definition. A built-in right keeps
 * its kinds (the service refuses a change), so its boxes are shown but disabled.
 */
export function DefinitionForm({ def, onSaved, onCancel }: TProps) {
  const { t } = useI18n();
  const r = useRightsText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(() => initialValues(def));
  const builtinHint = useId();
  const save = useMutation(
    trpc.console.rights.saveDefinition.mutationOptions({
      // Saved is said once the list shows it.
      onSuccess: async (saved) => {
        await queryClient.invalidateQueries(trpc.console.rights.definitions.pathFilter());
        onSaved(saved.name);
      },
    }),
  );
  const errors = save.error ? fieldErrorsOf(save.error, t) : {};
  const formRef = useFocusFirstError<HTMLFormElement>(save.error);
  if (appCodeOf(save.error) === "rights.definition_exists") errors.name = r("form.exists");
  const alert = Object.keys(errors).length ? r("form.fixErrors") : save.error ? rightsMessageOf(save.error, r, t) : null;

  // The kinds stay in their canonical order whatever order they are ticked in.
  const toggle = (field: TKindField, kind: string, on: boolean) => setValues((v) => ({ ...v, [field]: KINDS[field].filter((k) => (k === kind ? on : v[field].includes(k))) }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const { name, en, ru, subjectKinds, objectKinds } = values;
    save.mutate({
      name: name.trim(),
      create: !def,
      description: { en, ru },
      subjectKinds: subjectKinds as TRightDefinition["subjectKinds"],
      objectKinds: objectKinds as TRightDefinition["objectKinds"],
    });
  };

  const kindBoxes = (field: TKindField) => (
    <fieldset className="attr-fieldset" aria-describedby={def?.builtin ? builtinHint : undefined}>
      <legend className="ui-field__label">{r(`form.${field}`)}</legend>
      <div className="right-kinds">
        {KINDS[field].map((kind) => (
          <CheckboxField
            key={kind}
            label={r(`kind.${kind}`)}
            checked={values[field].includes(kind)}
            disabled={def?.builtin}
            onChange={(e) => toggle(field, kind, e.target.checked)}
          />
        ))}
      </div>
      {errors[field] ? (
        <p className="ui-field__error" role="alert">
          {errors[field]}
        </p>
      ) : null}
    </fieldset>
  );

  return (
    <form ref={formRef} className="client-form" onSubmit={submit} noValidate aria-busy={save.isPending}>
      <FormAlert text={alert} />
      <TextField
        label={r("form.name")}
        hint={r("form.nameHint")}
        value={values.name}
        onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))}
        error={errors.name}
        readOnly={!!def}
        autoComplete="off"
        spellCheck={false}
        required
      />
      <div className="client-form__row">
        <TextField label={r("form.descriptionEn")} lang="en" value={values.en} onChange={(e) => setValues((v) => ({ ...v, en: e.target.value }))} error={errors["description.en"]} autoComplete="off" />
        <TextField label={r("form.descriptionRu")} lang="ru" value={values.ru} onChange={(e) => setValues((v) => ({ ...v, ru: e.target.value }))} error={errors["description.ru"]} autoComplete="off" />
      </div>
      {def?.builtin ? (
        <p id={builtinHint} className="muted">
          {r("form.builtinKinds")}
        </p>
      ) : null}
      <div className="client-form__row">
        {kindBoxes("subjectKinds")}
        {kindBoxes("objectKinds")}
      </div>
      <FormActions pending={save.isPending} cancelLabel={r("browser.cancel")} submitLabel={def ? r("form.save") : r("form.create")} pendingLabel={r("form.saving")} onCancel={onCancel} />
    </form>
  );
}
