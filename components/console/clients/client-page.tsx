"use client";
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { isBuiltinClient } from "@/server/auth/apps";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { appCodeOf, isUnauthorized } from "../call-errors.ts";
import { ClientForm } from "../client-form.tsx";
import { CredentialDialogs, type TCredentialAction } from "../credential-dialogs.tsx";
import { BackLink, LoadFailedState, LoadingState, Notice } from "../list-parts.tsx";
import { OneTimeSecret, type TOneTimeSecret } from "../one-time-secret.tsx";
import { useTRPC, type TConsoleClient } from "../trpc.ts";
import { useCan } from "../viewer.tsx";
import { CredentialsSection, EndpointsSection, SettingsSection } from "./client-facts.tsx";
import { DeleteClientDialog } from "./delete-client-dialog.tsx";
import { useClientsText } from "./i18n.ts";
import { QuickStartPanel } from "./quick-start-panel.tsx";
import { dropSecret, peekSecret } from "./secret-handoff.ts";
import "../users/users.css";
import "./clients.css";

function Loaded({ client }: { client: TConsoleClient }) {
  const { t } = useI18n();
  const c = useClientsText();
  const trpc = useTRPC();
  const router = useRouter();
  const endpoints = useQuery(trpc.console.clients.endpoints.queryOptions(undefined, { staleTime: Infinity }));
  const configures = useCan("configure") && !isBuiltinClient(client.id);
  // The secret of an application created a moment ago, handed over by the form; shown once.
  const [secret, setSecret] = useState<TOneTimeSecret | null>(() => {
    const value = peekSecret(client.id);
    return value ? { title: t("secret.createdTitle", { id: client.id }), label: t("secret.label"), value } : null;
  });
  useEffect(() => () => dropSecret(client.id), [client.id]);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [credential, setCredential] = useState<TCredentialAction>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const signsIn = client.grantTypes.includes("authorization_code");

  return (
    <>
      <div className="clients__head">
        <div className="user-heading">
          <h1 className="page-title">{client.name}</h1>
          <code className="client-id">{client.id}</code>
          <span className="badge badge--on">{c(`kind.${client.kind}`)}</span>
          {client.enabled ? null : <span className="badge badge--off">{c("page.disabled")}</span>}
        </div>
        {configures ? (
          <div className="user-actions">
            <Button onClick={() => setEditing(true)}>{c("page.edit")}</Button>
            {client.type === "confidential" ? <Button onClick={() => setCredential({ kind: "rotate", client })}>{c("page.rotate")}</Button> : null}
            <Button variant="danger" onClick={() => setDeleting(true)}>
              {c("page.delete")}
            </Button>
          </div>
        ) : null}
      </div>
      <Notice text={notice} />
      <div className="app-layout">
        <CredentialsSection client={client} />
        {endpoints.data ? <EndpointsSection endpoints={endpoints.data} signsIn={signsIn} /> : null}
        <SettingsSection
          client={client}
          labels={{ grants: t("form.grantTypes"), redirects: t("form.redirectUris"), scopes: t("form.scopes"), userScopes: t("form.userScopes") }}
        />
      </div>
      {endpoints.data ? <QuickStartPanel client={client} endpoints={endpoints.data} /> : null}

      <Dialog open={editing} title={t("form.editTitle", { id: client.id })} onClose={() => setEditing(false)} wide>
        <ClientForm client={client} onCancel={() => setEditing(false)} onSaved={() => setEditing(false)} onCreated={() => undefined} />
      </Dialog>
      <CredentialDialogs action={credential} onClose={() => setCredential(null)} onSecret={setSecret} onNotice={setNotice} />
      <DeleteClientDialog client={client} open={deleting} onClose={() => setDeleting(false)} onDeleted={() => router.push(`/console/clients?deleted=${encodeURIComponent(client.id)}`)} />
      <OneTimeSecret
        secret={secret}
        onClose={() => {
          dropSecret(client.id);
          setSecret(null);
        }}
      />
    </>
  );
}

/** One application: what to copy into it, its settings, and the operations on it. */
export function ClientPageScreen({ id }: { id: string }) {
  const { t } = useI18n();
  const c = useClientsText();
  const trpc = useTRPC();
  const client = useQuery(trpc.console.clients.get.queryOptions({ id }, { retry: (n, e) => !isUnauthorized(e) && appCodeOf(e) !== "client.not_found" && n < 2 }));
  let body;
  if (client.isPending) body = <LoadingState label={c("page.loading")} />;
  else if (appCodeOf(client.error) === "client.not_found") {
    body = (
      <p className="ui-alert ui-alert--error" role="alert">
        {c("page.notFound", { id })}
      </p>
    );
  } else if (client.isError) body = <LoadFailedState label={c("page.loadFailed")} error={client.error} retryLabel={t("clients.retry")} onRetry={() => void client.refetch()} />;
  else body = <Loaded client={client.data} />;
  return (
    <section className="clients">
      <BackLink href="/console/clients" label={c("page.back")} />
      {body}
    </section>
  );
}
