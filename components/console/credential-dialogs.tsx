"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useI18n } from "../i18n-provider.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { messageOf } from "./call-errors.ts";
import type { TOneTimeSecret } from "./one-time-secret.tsx";
import { useTRPC, type TConsoleClient } from "./trpc.ts";

export type TCredentialAction = { kind: "rotate" | "setRest" | "removeRest"; client: TConsoleClient } | null;

type TProps = {
  action: TCredentialAction;
  onClose: () => void;
  /** A generated credential, to be shown once. */
  onSecret: (secret: TOneTimeSecret) => void;
  onNotice: (text: string) => void;
};

/** Confirmations for the credential operations; what they generate goes straight to the one-time panel. */
export function CredentialDialogs({ action, onClose, onSecret, onNotice }: TProps) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // Both answers may hold a credential: keep them no longer than it takes to hand them on.
  const rotate = useMutation(trpc.console.clients.rotateSecret.mutationOptions({ gcTime: 0 }));
  const rest = useMutation(
    trpc.console.clients.setRestPassword.mutationOptions({
      gcTime: 0,
      onSuccess: () => void queryClient.invalidateQueries(trpc.console.clients.list.pathFilter()),
    }),
  );
  const id = action?.client.id ?? "";

  function close() {
    rotate.reset();
    rest.reset();
    onClose();
  }

  function confirmRotate() {
    rotate.mutate(
      { id },
      {
        onSuccess: (r) => {
          close();
          onSecret({ title: t("secret.rotatedTitle", { id }), label: t("secret.label"), value: r.secret });
        },
      },
    );
  }

  function confirmRest(enable: boolean) {
    rest.mutate(
      { id, enable },
      {
        onSuccess: (r) => {
          close();
          if (r.password) onSecret({ title: t("secret.restTitle", { id }), label: t("secret.restLabel"), value: r.password });
          else onNotice(t("confirm.removed"));
        },
      },
    );
  }

  const removing = action?.kind === "removeRest";
  return (
    <>
      <ConfirmDialog
        open={action?.kind === "rotate"}
        title={t("confirm.rotateTitle", { id })}
        body={t("confirm.rotateBody")}
        confirmLabel={t("confirm.rotate")}
        cancelLabel={t("form.cancel")}
        danger
        pending={rotate.isPending}
        error={rotate.error ? messageOf(rotate.error, t) : undefined}
        onConfirm={confirmRotate}
        onClose={close}
      />
      <ConfirmDialog
        open={action?.kind === "setRest" || removing}
        title={removing ? t("confirm.removeRestTitle", { id }) : t("confirm.setRestTitle", { id })}
        body={removing ? t("confirm.removeRestBody") : t("confirm.setRestBody")}
        confirmLabel={removing ? t("confirm.remove") : t("confirm.set")}
        cancelLabel={t("form.cancel")}
        danger={removing}
        pending={rest.isPending}
        error={rest.error ? messageOf(rest.error, t) : undefined}
        onConfirm={() => confirmRest(!removing)}
        onClose={close}
      />
    </>
  );
}
