"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { messageOf } from "../call-errors.ts";
import { useTRPC, type TConsoleClient } from "../trpc.ts";
import { useClientsText } from "./i18n.ts";

type TProps = { client: TConsoleClient; open: boolean; onClose: () => void; onDeleted: () => void };

/** Deleting spells out what ends with the application, counted just before the question. */
export function DeleteClientDialog({ client, open, onClose, onDeleted }: TProps) {
  const { t } = useI18n();
  const c = useClientsText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const impact = useQuery(trpc.console.clients.deletionImpact.queryOptions({ id: client.id }, { enabled: open, gcTime: 0, staleTime: 0 }));
  const remove = useMutation(
    trpc.console.clients.delete.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries(trpc.console.clients.list.pathFilter());
        onDeleted();
      },
    }),
  );
  const close = () => {
    remove.reset();
    onClose();
  };
  const n = impact.data;
  return (
    <Dialog
      open={open}
      title={c("delete.title", { name: client.name })}
      onClose={close}
      footer={
        <>
          <Button onClick={close} disabled={remove.isPending}>
            {t("form.cancel")}
          </Button>
          <Button variant="danger" onClick={() => remove.mutate({ id: client.id })} disabled={!n || remove.isPending} aria-busy={remove.isPending}>
            {c("delete.confirm")}
          </Button>
        </>
      }
    >
      {n ? (
        <>
          <p>{c("delete.intro", { id: client.id })}</p>
          <ul className="app-impact">
            <li>{c("delete.tokens")}</li>
            <li>{c("delete.refresh", { n: String(n.refreshTokens) })}</li>
            <li>{c("delete.consents", { n: String(n.consents) })}</li>
            {n.instances ? <li>{c("delete.instances", { n: String(n.instances) })}</li> : null}
          </ul>
          <p className="muted">{c("delete.events")}</p>
        </>
      ) : impact.isError ? (
        <p className="ui-alert ui-alert--error" role="alert">
          {messageOf(impact.error, t)}
        </p>
      ) : (
        <p role="status">{c("delete.loading")}</p>
      )}
      {remove.error ? (
        <p className="ui-alert ui-alert--error" role="alert">
          {messageOf(remove.error, t)}
        </p>
      ) : null}
    </Dialog>
  );
}
