"use client";
import { useMutation } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { TextField } from "../../ui/field.tsx";
import { FormActions } from "../../ui/form-actions.tsx";
import { messageOf } from "../call-errors.ts";
import { useTRPC } from "../trpc.ts";
import { useOtpText } from "./i18n.ts";

type TProps = { sub: string; open: boolean; onClose: () => void; onDone: (removed: { generators: number; backups: number }) => void };

/**
 * For a person who lost their authenticator: every generator and backup code removed, the second
 * factor off. The reason is required and goes to the event only (a ticket number, "lost phone").
 */
export function ResetSecondFactorDialog({ sub, open, onClose, onDone }: TProps) {
  const { t } = useI18n();
  const o = useOtpText();
  const trpc = useTRPC();
  const [reason, setReason] = useState("");
  const [missing, setMissing] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const reset = useMutation(trpc.console.otp.resetSecondFactor.mutationOptions({ onSuccess: (removed) => { setReason(""); onDone(removed); } }));
  const close = () => {
    setReason("");
    setMissing(false);
    reset.reset();
    onClose();
  };
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!reason.trim()) {
      setMissing(true);
      field.current?.focus();
      return;
    }
    reset.mutate({ sub, reason: reason.trim() });
  }
  return (
    <Dialog open={open} title={o("reset.title")} onClose={close}>
      <form className="user-form" onSubmit={submit} noValidate aria-busy={reset.isPending}>
        <p>{o("reset.explain")}</p>
        {reset.error ? <p className="ui-alert ui-alert--error" role="alert">{messageOf(reset.error, t)}</p> : null}
        <TextField
          ref={field}
          label={o("reset.reason")}
          hint={o("reset.reasonHint")}
          name="reason"
          required
          maxLength={200}
          autoComplete="off"
          value={reason}
          error={missing && !reason.trim() ? o("reset.reasonMissing") : undefined}
          onChange={(e) => setReason(e.target.value)}
        />
        <FormActions pending={reset.isPending} cancelLabel={o("common.cancel")} submitLabel={o("reset.submit")} pendingLabel={o("reset.pending")} onCancel={close} />
      </form>
    </Dialog>
  );
}
