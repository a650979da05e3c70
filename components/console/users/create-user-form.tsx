"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { TextField } from "../../ui/field.tsx";
import { FormActions } from "../../ui/form-actions.tsx";
import { fieldErrorsOf, messageOf } from "../call-errors.ts";
import { LoadFailedState, LoadingState } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { editableDefs, newAttributesOf, type TDrafts } from "./attribute-drafts.ts";
import { AttributeFields } from "./attribute-input.tsx";
import { useUsersText } from "./i18n.ts";
import type { TUserDetail } from "./types.ts";
import { useFocusFirstError } from "../../ui/use-focus-first-error.ts";

type TProps = { onCreated: (user: TUserDetail) => void; onCancel: () => void };

/** Every catalog attribute (empty ones are left out) and an optional password. */
export function CreateUserForm({ onCreated, onCancel }: TProps) {
  const { t } = useI18n();
  const u = useUsersText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const catalog = useQuery(trpc.console.attributes.list.queryOptions());
  const [drafts, setDrafts] = useState<TDrafts>({});
  const [password, setPassword] = useState("");
  const create = useMutation(
    trpc.console.users.create.mutationOptions({
      // The variables hold the password: forget them once nothing shows the result.
      gcTime: 0,
      onSuccess: (user) => {
        void queryClient.invalidateQueries(trpc.console.users.list.pathFilter());
        onCreated(user);
      },
    }),
  );
  const defs = editableDefs(catalog.data ?? []);
  const errors = create.error ? fieldErrorsOf(create.error, t) : {};
  const formRef = useFocusFirstError<HTMLFormElement>(create.error);
  const placed = Object.keys(errors).some((k) => k === "password" || defs.some((d) => k === d.name || k.startsWith(`${d.name}.`)));

  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate({ attributes: newAttributesOf(defs, drafts), password: password || undefined });
  }

  if (catalog.isPending) return <LoadingState label={u("users.loading")} />;
  if (catalog.isError) return <LoadFailedState label={u("create.catalogFailed")} error={catalog.error} retryLabel={u("users.retry")} onRetry={() => void catalog.refetch()} />;
  return (
    <form ref={formRef} className="user-form" onSubmit={submit} noValidate aria-busy={create.isPending}>
      {create.error ? (
        <p className="ui-alert ui-alert--error" role="alert">
          {placed ? u("detail.fixErrors") : messageOf(create.error, t)}
        </p>
      ) : null}
      <AttributeFields defs={defs} drafts={drafts} setDrafts={setDrafts} errors={errors} shape={(def) => ({ hint: def.name === "sub" ? u("attr.subHint") : undefined })}>
        <TextField
          label={u("create.password")}
          hint={u("create.passwordHint")}
          type="password"
          name="password"
          autoComplete="new-password"
          value={password}
          error={errors.password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </AttributeFields>
      <FormActions pending={create.isPending} cancelLabel={u("detail.cancel")} submitLabel={u("create.submit")} pendingLabel={u("detail.saving")} onCancel={onCancel} />
    </form>
  );
}
