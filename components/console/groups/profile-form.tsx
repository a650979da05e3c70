"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { CheckboxField, SelectField, TextField } from "../../ui/field.tsx";
import { FormActions } from "../../ui/form-actions.tsx";
import { FormAlert } from "../../ui/form-alert.tsx";
import { fieldErrorsOf } from "../call-errors.ts";
import { useTRPC } from "../trpc.ts";
import { groupsMessageOf } from "./group-errors.ts";
import { useGroupsText } from "./i18n.ts";
import type { TGroupAttrDefView, TProfileView } from "./types.ts";
import { useFocusFirstError } from "../../ui/use-focus-first-error.ts";

// groups.schemas' GROUP_ATTR_TYPES, written out: importing it would bring zod into the page.
const TYPES = ["string", "number", "boolean", "date", "string_list"] as const;
type TType = (typeof TYPES)[number];

/** One attribute row while edited: the length as typed, a key that survives removing a row above. */
type TAttrDraft = { key: number; name: string; type: TType; required: boolean; unique: boolean; maxLength: string };

let nextKey = 0;
const draftOf = (a?: TGroupAttrDefView): TAttrDraft => ({
  key: nextKey++,
  name: a?.name ?? "",
  type: a?.type ?? "string",
  required: a?.required ?? false,
  unique: a?.unique ?? false,
  maxLength: a?.maxLength === undefined ? "" : String(a.maxLength),
});

/** A row as the schema takes it; a length that is not a number is sent so the server names the problem. */
function defOf(d: TAttrDraft): TGroupAttrDefView {
  const text = d.maxLength.trim();
  return { name: d.name.trim(), type: d.type, required: d.required, ...(d.unique ? { unique: true } : {}), ...(text ? { maxLength: Number(text) } : {}) };
}

type TProps = { profile?: TProfileView; onSaved: (name: string) => void; onCancel: () => void };

/** Create and edit share one form: the service replaces the description and the whole schema. */
export function ProfileForm({ profile, onSaved, onCancel }: TProps) {
  const { t } = useI18n();
  const g = useGroupsText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState(profile?.name ?? "");
  const [description, setDescription] = useState(profile?.description ?? { en: "", ru: "" });
  const [attrs, setAttrs] = useState<TAttrDraft[]>(() => (profile?.attributes ?? []).map(draftOf));
  const save = useMutation(
    trpc.console.groups.saveProfile.mutationOptions({
      onSuccess: async (saved) => {
        await queryClient.invalidateQueries(trpc.console.groups.profiles.pathFilter());
        onSaved(saved.name);
      },
    }),
  );
  const errors = save.error ? fieldErrorsOf(save.error, t) : {};
  const formRef = useFocusFirstError<HTMLFormElement>(save.error);
  const alert = Object.keys(errors).length ? g("pform.fixErrors") : save.error ? groupsMessageOf(save.error, g, t) : null;
  const change = (key: number, patch: Partial<TAttrDraft>) => setAttrs((list) => list.map((a) => (a.key === key ? { ...a, ...patch } : a)));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ name: name.trim(), description, attributes: attrs.map(defOf), create: !profile });
  };

  return (
    <form ref={formRef} className="client-form" onSubmit={submit} noValidate aria-busy={save.isPending}>
      <FormAlert text={alert} />
      <TextField label={g("pform.name")} hint={g("pform.nameHint")} value={name} onChange={(e) => setName(e.target.value)} error={errors.name} readOnly={!!profile} autoComplete="off" spellCheck={false} required />
      <div className="client-form__row">
        <TextField label={g("pform.descriptionEn")} lang="en" value={description.en} onChange={(e) => setDescription((d) => ({ ...d, en: e.target.value }))} error={errors["description.en"]} autoComplete="off" />
        <TextField label={g("pform.descriptionRu")} lang="ru" value={description.ru} onChange={(e) => setDescription((d) => ({ ...d, ru: e.target.value }))} error={errors["description.ru"]} autoComplete="off" />
      </div>
      <fieldset className="attr-fieldset">
        <legend className="ui-field__label">{g("pform.attributes")}</legend>
        {profile ? <p className="ui-field__hint">{g("pform.attributesHint")}</p> : null}
        {attrs.length ? null : <p className="muted">{g("pform.noAttrs")}</p>}
        <ol className="group-attr-rows">
          {attrs.map((a, i) => {
            const n = String(i + 1);
            return (
              <li key={a.key} className="group-attr-row" aria-label={g("pform.attrRow", { n })}>
                <TextField label={g("pform.attrName")} value={a.name} onChange={(e) => change(a.key, { name: e.target.value })} autoComplete="off" spellCheck={false} required />
                <SelectField label={g("pform.attrType")} value={a.type} onChange={(e) => change(a.key, { type: e.target.value as TType })}>
                  {TYPES.map((type) => (
                    <option key={type} value={type}>
                      {g(`type.${type}`)}
                    </option>
                  ))}
                </SelectField>
                <TextField label={g("pform.attrMaxLength")} inputMode="numeric" value={a.maxLength} onChange={(e) => change(a.key, { maxLength: e.target.value })} autoComplete="off" className="group-attr-row__len" />
                <div className="group-attr-row__flags">
                  <CheckboxField label={g("pform.attrRequired")} checked={a.required} onChange={(e) => change(a.key, { required: e.target.checked })} />
                  <CheckboxField label={g("pform.attrUnique")} checked={a.unique} onChange={(e) => change(a.key, { unique: e.target.checked })} />
                </div>
                <Button size="sm" variant="ghost" onClick={() => setAttrs((list) => list.filter((x) => x.key !== a.key))}>
                  {g("pform.removeAttr", { n })}
                </Button>
              </li>
            );
          })}
        </ol>
        {errors.attributes ? (
          <p className="ui-field__error" role="alert">
            {errors.attributes}
          </p>
        ) : null}
        <Button size="sm" onClick={() => setAttrs((list) => [...list, draftOf()])}>
          {g("pform.addAttr")}
        </Button>
      </fieldset>
      <FormActions pending={save.isPending} cancelLabel={g("common.cancel")} submitLabel={profile ? g("pform.save") : g("pform.create")} pendingLabel={g("pform.saving")} onCancel={onCancel} />
    </form>
  );
}
