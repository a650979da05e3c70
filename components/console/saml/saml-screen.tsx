"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { messageOf } from "../call-errors.ts";
import { LoadFailedState, LoadingState, Notice } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { useSamlText, type TSamlText } from "./i18n.ts";
import { SamlSpForm } from "./saml-sp-form.tsx";
import { fromSettings } from "./saml-sp-values.ts";
import "./saml.css";

type TSp = inferRouterOutputs<AppRouter>["console"]["samlSps"]["list"][number];

function columns(s: TSamlText, onEdit: (x: TSp) => void, onRemove: (x: TSp) => void): TColumn<TSp>[] {
  const flags = (x: TSp) =>
    [
      x.requireSignedRequests ? s("saml.flag.signed") : s("saml.flag.unsigned"),
      x.assertionEncryption !== "off" ? s("saml.flag.encrypted", { cipher: x.assertionEncryption }) : "",
      x.allowIdpInitiated ? s("saml.flag.idpInit") : "",
      x.askConsent ? s("saml.flag.consent") : "",
      x.sloUrls.length ? s("saml.flag.slo") : "",
      s("saml.flag.nameId", { format: x.nameIdFormat }),
    ].filter(Boolean);
  return [
    { key: "app", header: s("saml.col.app"), cell: (x) => <><strong>{x.name}</strong> <code className="client-id">{x.id}</code></> },
    { key: "entityId", header: s("saml.col.entityId"), cell: (x) => <span className="saml-entity">{x.entityId}</span> },
    { key: "flags", header: s("saml.col.settings"), cell: (x) => <span className="scope-list">{flags(x).map((f) => <span key={f} className="badge badge--on">{f}</span>)}</span> },
    {
      key: "actions",
      header: <span className="ui-visually-hidden">{s("saml.col.actions")}</span>,
      className: "cell-actions",
      cell: (x) => (
        <>
          <Button size="sm" variant="ghost" onClick={() => onEdit(x)}>
            {s("saml.edit")}
            <span className="ui-visually-hidden"> {x.name}</span>
          </Button>
          <Button size="sm" variant="ghost" onClick={() => onRemove(x)}>
            {s("saml.remove")}
            <span className="ui-visually-hidden"> {x.name}</span>
          </Button>
        </>
      ),
    },
  ];
}

/** What an administrator of a service provider types into it. */
function IdpSettings({ s }: { s: TSamlText }) {
  const trpc = useTRPC();
  const idp = useQuery(trpc.console.samlSps.idp.queryOptions());
  if (!idp.data) return null;
  return (
    <section className="saml-idp" aria-labelledby="saml-idp-title">
      <h2 id="saml-idp-title">{s("saml.idp")}</h2>
      <dl>
        <dt>{s("saml.idp.entityId")}</dt>
        <dd><code>{idp.data.entityId}</code></dd>
        <dt>{s("saml.idp.sso")}</dt>
        <dd><code>{idp.data.ssoUrl}</code></dd>
        <dt>{s("saml.idp.slo")}</dt>
        <dd><code>{idp.data.sloUrl}</code></dd>
      </dl>
    </section>
  );
}

/** One application's saved settings, loaded, in the form. */
function EditSp({ id, onSaved, onCancel }: { id: string; onSaved: (name: string) => void; onCancel: () => void }) {
  const s = useSamlText();
  const trpc = useTRPC();
  const settings = useQuery(trpc.console.samlSps.get.queryOptions({ id }, { staleTime: 0, gcTime: 0 }));
  if (settings.isPending) return <LoadingState label={s("saml.loading")} />;
  if (settings.isError) return <LoadFailedState label={s("saml.loadFailed")} error={settings.error} retryLabel={s("saml.retry")} onRetry={() => void settings.refetch()} />;
  return <SamlSpForm initial={fromSettings(settings.data)} onSaved={onSaved} onCancel={onCancel} />;
}

/** SAML applications: the service's own settings to give them, the list, adding, editing and deleting one. */
export function SamlScreen() {
  const { t } = useI18n();
  const s = useSamlText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const sps = useQuery(trpc.console.samlSps.list.queryOptions());
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<TSp | null>(null);
  const [removing, setRemoving] = useState<TSp | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const remove = useMutation(
    trpc.console.samlSps.delete.mutationOptions({
      onSuccess: () => {
        setNotice(s("saml.removed", { name: removing?.name ?? "" }));
        setRemoving(null);
        void queryClient.invalidateQueries(trpc.console.samlSps.pathFilter());
      },
    }),
  );

  let body;
  if (sps.isPending) body = <LoadingState label={s("saml.loading")} />;
  else if (sps.isError) body = <LoadFailedState label={s("saml.loadFailed")} error={sps.error} retryLabel={s("saml.retry")} onRetry={() => void sps.refetch()} />;
  else if (!sps.data.length) body = <p className="muted">{s("saml.empty")}</p>;
  else {
    const ask = (x: TSp) => {
      setNotice(null);
      setRemoving(x);
    };
    const edit = (x: TSp) => {
      setNotice(null);
      setEditing(x);
    };
    body = <Table caption={s("saml.title")} columns={columns(s, edit, ask)} rows={sps.data} rowKey={(x) => x.id} />;
  }

  return (
    <section className="clients">
      <div className="clients__head">
        <h1 className="page-title">{s("saml.title")}</h1>
        <Button variant="primary" onClick={() => setAdding(true)}>
          {s("saml.new")}
        </Button>
      </div>
      <p className="muted attr-intro">{s("saml.intro")}</p>
      <IdpSettings s={s} />
      <Notice text={notice} />
      {body}
      <Dialog open={adding} title={s("form.title")} onClose={() => setAdding(false)} wide>
        <SamlSpForm
          key={adding ? "open" : "closed"}
          onCancel={() => setAdding(false)}
          onSaved={(name) => {
            setAdding(false);
            setNotice(s("saml.added", { name }));
          }}
        />
      </Dialog>
      <Dialog open={!!editing} title={s("form.editTitle", { name: editing?.name ?? "" })} onClose={() => setEditing(null)} wide>
        {editing ? (
          <EditSp
            key={editing.id}
            id={editing.id}
            onCancel={() => setEditing(null)}
            onSaved={(name) => {
              setEditing(null);
              setNotice(s("saml.saved", { name }));
            }}
          />
        ) : null}
      </Dialog>
      <ConfirmDialog
        open={!!removing}
        title={s("saml.removeTitle", { name: removing?.name ?? "" })}
        body={s("saml.removeBody")}
        confirmLabel={s("saml.remove")}
        cancelLabel={s("saml.cancel")}
        danger
        pending={remove.isPending}
        error={remove.error ? messageOf(remove.error, t) : undefined}
        onConfirm={() => removing && remove.mutate({ id: removing.id })}
        onClose={() => {
          setRemoving(null);
          remove.reset();
        }}
      />
    </section>
  );
}
