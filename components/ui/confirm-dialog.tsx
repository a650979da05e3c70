"use client";
import type { ReactNode } from "react";
import { Button } from "./button.tsx";
import { Dialog } from "./dialog.tsx";

type TConfirmProps = {
  open: boolean;
  title: ReactNode;
  body: ReactNode;
  confirmLabel: ReactNode;
  cancelLabel: ReactNode;
  danger?: boolean;
  pending?: boolean;
  error?: string;
  onConfirm: () => void;
  onClose: () => void;
};

export function ConfirmDialog(p: TConfirmProps) {
  return (
    <Dialog
      open={p.open}
      title={p.title}
      onClose={p.onClose}
      footer={
        <>
          <Button onClick={p.onClose} disabled={p.pending}>
            {p.cancelLabel}
          </Button>
          <Button variant={p.danger ? "danger" : "primary"} onClick={p.onConfirm} disabled={p.pending} aria-busy={p.pending}>
            {p.confirmLabel}
          </Button>
        </>
      }
    >
      <p>{p.body}</p>
      {p.error ? (
        <p className="ui-alert ui-alert--error" role="alert">
          {p.error}
        </p>
      ) : null}
    </Dialog>
  );
}
