"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { usePortalErrorText } from "../portal-errors.ts";
import { useTRPC } from "../trpc.ts";
import { usePasskeysText } from "./i18n.ts";

/**
 * "Sign in without a password from now on": offered once the person has a passkey; without a
 * password, the card says how to get one back. The change needs a recent sign-in, like adding a
 * passkey (the portal's step-up asks for it when the sign-in is old).
 */
export function PasswordlessCard({ passkeys, onDropped }: { passkeys: number; onDropped: (text: string) => void }) {
  const p = usePasskeysText();
  const reason = usePortalErrorText();
  const trpc = useTRPC();
  const password = useQuery(trpc.portal.passkeys.password.queryOptions());
  const drop = useMutation(trpc.portal.passkeys.dropPassword.mutationOptions());
  const [asking, setAsking] = useState(false);
  if (!password.data) return null;
  const confirm = () =>
    drop.mutate(undefined, {
      onSuccess: () => {
        setAsking(false);
        void password.refetch();
        onDropped(p("passkeys.dropped"));
      },
    });
  return (
    <section className="otp-add" aria-labelledby="passwordless-title">
      <h2 id="passwordless-title">{p("passkeys.passwordless")}</h2>
      {!password.data.hasPassword ? (
        <p data-testid="passwordless-state">{p("passkeys.noPassword")}</p>
      ) : passkeys === 0 ? (
        <p className="muted">{p("passkeys.passwordlessNeedsPasskey")}</p>
      ) : (
        <>
          <p className="muted">{p("passkeys.passwordlessIntro")}</p>
          <div className="otp-add__actions">
            <Button variant="danger" onClick={() => (drop.reset(), setAsking(true))}>
              {p("passkeys.dropPassword")}
            </Button>
          </div>
        </>
      )}
      <ConfirmDialog
        open={asking}
        title={p("passkeys.dropTitle")}
        body={p("passkeys.dropBody")}
        confirmLabel={p("passkeys.dropPassword")}
        cancelLabel={p("passkeys.cancel")}
        pending={drop.isPending}
        error={drop.isError ? reason(drop.error) : undefined}
        onConfirm={confirm}
        onClose={() => setAsking(false)}
        danger
      />
    </section>
  );
}
