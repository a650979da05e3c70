"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { TextField } from "../../ui/field.tsx";
import { fieldErrorsOf, messageOf } from "../call-errors.ts";
import { useTRPC } from "../trpc.ts";
import { editableDefs, newAttributesOf, type TDrafts } from "./attribute-drafts.ts";
import { AttributeInput } from "./attribute-input.tsx";
import { useUsersText } from "./i18n.ts";
import type { TUserDetail } from "./types.ts";

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
  const placed = Object.keys(errors).some((k) => k === "password" || defs.some((d) => k === d.name || k.startsWith(`${d.name}.`)));

  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate({ attributes: newAttributesOf(defs, drafts), password: password || undefined });
  }

  if (catalog.isPending) {
    return (
      <p className="muted" role="status">
        <span className="spinner" aria-hidden="true" /> {u("users.loading")}
      </p>
    );
  }
  if (catalog.isError) {
    return (
      <p className="ui-alert ui-alert--error" role="alert">
        {u("create.catalogFailed")} {messageOf(catalog.error, t)}
      </p>
    );
  }
  return (
    <form className="user-form" onSubmit={submit} noValidate aria-busy={create.isPending}>
      {create.error ? (
        <p className="ui-alert ui-alert--error" role="alert">
          {placed ? u("detail.fixErrors") : messageOf(create.error, t)}
        </p>
      ) : null}
      <div className="user-form__grid">
        {defs.map((def) => (
          <AttributeInput
            key={def.name}
            def={def}
            draft={drafts[def.name] ?? { text: "", vrf: false }}
            onChange={(next) => setDrafts((d) => ({ ...d, [def.name]: next }))}
            errors={errors}
            hint={def.name === "sub" ? u("attr.subHint") : undefined}
          />
        ))}
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
      </div>
      <div className="client-form__actions">
        <Button onClick={onCancel} disabled={create.isPending}>
          {u("detail.cancel")}
        </Button>
        <Button type="submit" variant="primary" disabled={create.isPending}>
          {create.isPending ? u("detail.saving") : u("create.submit")}
        </Button>
      </div>
    </form>
  );
}
