"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { CheckboxField, TextField } from "../../ui/field.tsx";
import { FormActions } from "../../ui/form-actions.tsx";
import { FormAlert } from "../../ui/form-alert.tsx";
import { useFocusFirstError } from "../../ui/use-focus-first-error.ts";
import { appCodeOf, fieldErrorsOf, messageOf } from "../call-errors.ts";
import { useTRPC } from "../trpc.ts";
import { DirectoryAttributeRows } from "./directory-attribute-rows.tsx";
import { ConnectionSection, GroupsSection, ModeSection, PasswordSection, PeopleSection } from "./directory-form-sections.tsx";
import { DirectoryTestResult } from "./directory-test-result.tsx";
import { EMPTY_VALUES, toInput, type TDirectoryValues } from "./directory-values.ts";
import { useDirText } from "./i18n.ts";
import "./directories.css";

type TProps = { initial?: TDirectoryValues; onSaved: (name: string) => void; onCancel: () => void };

/**
 * A directory's settings, with "Test connection" to try them before they are saved. With `initial`,
 * the saved settings of one to change (its ID stays, its password and CA are kept unless replaced);
 * without, a new one.
 */
export function DirectoryForm({ initial, onSaved, onCancel }: TProps) {
  const { t } = useI18n();
  const d = useDirText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const editing = initial !== undefined;
  const [values, setValues] = useState<TDirectoryValues>(initial ?? EMPTY_VALUES);
  const set = (patch: Partial<TDirectoryValues>) => setValues((v) => ({ ...v, ...patch }));
  const options = {
    onSuccess: (x: { name: string }) => {
      void queryClient.invalidateQueries(trpc.console.directories.pathFilter());
      onSaved(x.name);
    },
  };
  const create = useMutation(trpc.console.directories.create.mutationOptions(options));
  const update = useMutation(trpc.console.directories.update.mutationOptions(options));
  const test = useMutation(trpc.console.directories.test.mutationOptions());
  const call = editing ? update : create;
  // The fields a refusal names are those of the last thing asked: a save or a test.
  const [last, setLast] = useState<"save" | "test">("save");
  const failed = last === "test" ? test.error : call.error;

  const errors = failed ? fieldErrorsOf(failed, t) : {};
  if (appCodeOf(failed) === "directory.exists") errors.id = d("form.exists");
  const formRef = useFocusFirstError<HTMLFormElement>(failed);
  const alert = Object.keys(errors).length ? d("form.fixErrors") : failed ? messageOf(failed, t) : null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setLast("save");
    call.mutate(toInput(values));
  };
  const runTest = () => {
    setLast("test");
    test.mutate(toInput(values));
  };

  return (
    <form ref={formRef} className="client-form" onSubmit={submit} noValidate aria-busy={call.isPending || test.isPending}>
      <FormAlert text={alert} />
      <div className="client-form__row">
        <TextField label={d("form.id")} hint={editing ? d("form.idFixed") : d("form.idHint")} value={values.id} onChange={(e) => set({ id: e.target.value })} error={errors.id} autoComplete="off" spellCheck={false} readOnly={editing} required />
        <TextField label={d("form.name")} hint={d("form.nameHint")} value={values.name} onChange={(e) => set({ name: e.target.value })} error={errors.name} autoComplete="off" required />
      </div>
      <CheckboxField label={d("form.enabled")} checked={values.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
      <ConnectionSection values={values} set={set} errors={errors} editing={editing} />
      <PeopleSection values={values} set={set} errors={errors} />
      <DirectoryAttributeRows rules={values.attributes} onChange={(attributes) => set({ attributes })} error={errors.attributes} />
      <GroupsSection values={values} set={set} errors={errors} />
      <ModeSection values={values} set={set} errors={errors} />
      <PasswordSection values={values} set={set} errors={errors} />
      <div className="dir-form__test">
        <Button onClick={runTest} disabled={test.isPending}>
          {test.isPending ? d("form.testing") : d("form.test")}
        </Button>
      </div>
      <div aria-live="polite">{test.data && last === "test" && !test.isPending ? <DirectoryTestResult result={test.data} names={values} /> : null}</div>
      <FormActions pending={call.isPending} cancelLabel={d("dir.cancel")} submitLabel={editing ? d("form.save") : d("form.add")} pendingLabel={editing ? d("form.saving") : d("form.adding")} onCancel={onCancel} />
    </form>
  );
}
