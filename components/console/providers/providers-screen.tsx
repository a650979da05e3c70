"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { messageOf } from "../call-errors.ts";
import { LoadFailedState, LoadingState, Notice } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { useProvidersText, type TProvidersText } from "./i18n.ts";
import { ProviderForm, type TProvider } from "./provider-form.tsx";
import "./providers.css";

const label = (p: TProvider) => `${p.fpType}:${p.fpName}`;

function columns(p: TProvidersText, onEdit: (x: TProvider) => void, onRemove: (x: TProvider) => void): TColumn<TProvider>[] {
  const flags = (x: TProvider) =>
    [
      x.offeredAtSignIn ? p("fp.flag.signIn") : "",
      x.rememberTokens ? p("fp.flag.tokens") : "",
      x.allowRegistration ? p("fp.flag.registration") : "",
      x.hasClientSecret ? "" : p("fp.flag.noSecret"),
    ].filter(Boolean);
  return [
    { key: "provider", header: p("fp.col.provider"), cell: (x) => <code className="client-id">{label(x)}</code> },
    { key: "endpoints", header: p("fp.col.endpoints"), cell: (x) => <span className="fp-url">{x.discoveryUrl ?? x.authorizationEndpoint}</span> },
    { key: "flags", header: p("fp.col.flags"), cell: (x) => <span className="scope-list">{flags(x).map((f) => <span key={f} className="badge badge--on">{f}</span>)}</span> },
    { key: "bindings", header: p("fp.col.bindings"), cell: (x) => x.bindings },
    {
      key: "actions",
      header: <span className="ui-visually-hidden">{p("fp.col.actions")}</span>,
      className: "cell-actions",
      cell: (x) => (
        <div className="row-actions">
          <Button size="sm" variant="ghost" onClick={() => onEdit(x)}>
            {p("fp.edit")}
            <span className="ui-visually-hidden"> {label(x)}</span>
          </Button>
          <Button size="sm" variant="ghost" onClick={() => onRemove(x)}>
            {p("fp.remove")}
            <span className="ui-visually-hidden"> {label(x)}</span>
          </Button>
        </div>
      ),
    },
  ];
}

/** External identity providers: list, create, edit (secret write-only), test discovery, delete. */
export function ProvidersScreen() {
  const { t } = useI18n();
  const p = useProvidersText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const providers = useQuery(trpc.console.providers.list.queryOptions());
  const [editing, setEditing] = useState<{ provider?: TProvider } | null>(null);
  const [removing, setRemoving] = useState<TProvider | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const remove = useMutation(
    trpc.console.providers.delete.mutationOptions({
      onSuccess: (_, key) => {
        setRemoving(null);
        setNotice(p("fp.removed", { name: `${key.fpType}:${key.fpName}` }));
        void queryClient.invalidateQueries(trpc.console.providers.pathFilter());
      },
    }),
  );

  let body;
  if (providers.isPending) body = <LoadingState label={p("fp.loading")} />;
  else if (providers.isError) body = <LoadFailedState label={p("fp.loadFailed")} error={providers.error} retryLabel={p("fp.retry")} onRetry={() => void providers.refetch()} />;
  else if (!providers.data.length) body = <p className="muted">{p("fp.empty")}</p>;
  else {
    const ask = (x: TProvider) => {
      setNotice(null);
      setRemoving(x);
    };
    body = <Table caption={p("fp.title")} columns={columns(p, (x) => setEditing({ provider: x }), ask)} rows={providers.data} rowKey={label} />;
  }

  const bound = removing?.bindings ?? 0;
  return (
    <section className="clients">
      <div className="clients__head">
        <h1 className="page-title">{p("fp.title")}</h1>
        <Button variant="primary" onClick={() => setEditing({})}>
          {p("fp.new")}
        </Button>
      </div>
      <p className="muted attr-intro">{p("fp.intro")}</p>
      <Notice text={notice} />
      {body}
      <Dialog open={!!editing} title={editing?.provider ? p("form.editTitle", { name: label(editing.provider) }) : p("form.createTitle")} onClose={() => setEditing(null)} wide>
        <ProviderForm
          key={editing?.provider ? label(editing.provider) : "new"}
          provider={editing?.provider}
          onCancel={() => setEditing(null)}
          onSaved={(name) => {
            setEditing(null);
            setNotice(p("fp.saved", { name }));
          }}
        />
      </Dialog>
      <ConfirmDialog
        open={!!removing}
        title={p("fp.removeTitle", { name: removing ? label(removing) : "" })}
        body={bound ? p("fp.inUse", { count: String(bound) }) : p("fp.removeBody")}
        confirmLabel={bound ? p("fp.forceRemove") : p("fp.remove")}
        cancelLabel={p("fp.cancel")}
        danger
        pending={remove.isPending}
        error={remove.error ? messageOf(remove.error, t) : undefined}
        onConfirm={() => removing && remove.mutate({ fpType: removing.fpType, fpName: removing.fpName, force: bound > 0 })}
        onClose={() => {
          setRemoving(null);
          remove.reset();
        }}
      />
    </section>
  );
}
