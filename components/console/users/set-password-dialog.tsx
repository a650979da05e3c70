"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { CheckboxField, TextField } from "../../ui/field.tsx";
import { FormActions } from "../../ui/form-actions.tsx";
import { messageOf, problemsOf } from "../call-errors.ts";
import { useTRPC } from "../trpc.ts";
import { useUsersText } from "./i18n.ts";
import type { TUserDetail } from "./types.ts";

type TProps = { user: TUserDetail; open: boolean; onClose: () => void; onDone: (mustChange: boolean) => void };

/**
 * A new password for the account, typed by the administrator, and whether the next sign-in asks
 * the person for their own. The policy's refusals are listed as the server words them.
 */
export function SetPasswordDialog({ user, open, onClose, onDone }: TProps) {
  const { lang, t } = useI18n();
  const u = useUsersText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState("");
  const [mustChange, setMustChange] = useState(true);
  const set = useMutation(
    trpc.console.users.setPassword.mutationOptions({
      // The variables hold the password: forget them once nothing shows the result.
      gcTime: 0,
      onSuccess: (updated) => {
        queryClient.setQueryData(trpc.console.users.get.queryKey({ sub: user.sub }), updated);
        setPassword("");
        onDone(mustChange);
      },
    }),
  );
  const problems = set.error ? problemsOf(set.error) : [];
  const close = () => {
    setPassword("");
    set.reset();
    onClose();
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    set.mutate({ instanceId: user.instanceId, password, mustChange, locale: lang });
  }

  return (
    <Dialog open={open} title={u("password.title", { sub: user.sub })} onClose={close}>
      <form className="user-form" onSubmit={submit} noValidate aria-busy={set.isPending}>
        <p className="muted">{u("password.explain")}</p>
        {set.error && !problems.length ? (
          <p className="ui-alert ui-alert--error" role="alert">
            {messageOf(set.error, t)}
          </p>
        ) : null}
        <TextField
          label={u("password.new")}
          type="password"
          name="password"
          autoComplete="new-password"
          required
          value={password}
          error={problems.length ? problems.join(" ") : undefined}
          onChange={(e) => setPassword(e.target.value)}
        />
        <CheckboxField label={u("password.mustChange")} name="mustChange" checked={mustChange} onChange={(e) => setMustChange(e.target.checked)} />
        <FormActions pending={set.isPending} cancelLabel={u("detail.cancel")} submitLabel={u("password.submit")} pendingLabel={u("detail.saving")} onCancel={close} />
      </form>
    </Dialog>
  );
}
