"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { appCodeOf, messageOf } from "../call-errors.ts";
import { LoadFailedState, LoadingState, Notice } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { AttributeDefForm, type TCatalogEntry } from "./attribute-def-form.tsx";
import { AttributesTable } from "./attributes-table.tsx";
import { useAttributesText } from "./i18n.ts";
import "./attributes.css";

type TEditing = { entry?: TCatalogEntry } | null;

/** The attribute catalog: every definition in display order, to create, edit and remove. */
export function AttributesScreen() {
  const { t } = useI18n();
  const a = useAttributesText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const catalog = useQuery(trpc.console.attributes.list.queryOptions());
  const [editing, setEditing] = useState<TEditing>(null);
  const [removing, setRemoving] = useState<TCatalogEntry | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const remove = useMutation(
    trpc.console.attributes.remove.mutationOptions({
      onSuccess: (_, { name }) => {
        setRemoving(null);
        setNotice(a("attrs.removed", { name }));
        void queryClient.invalidateQueries(trpc.console.attributes.list.pathFilter());
      },
    }),
  );

  let body;
  if (catalog.isPending) {
    body = <LoadingState label={a("attrs.loading")} />;
  } else if (catalog.isError) {
    body = <LoadFailedState label={a("attrs.loadFailed")} error={catalog.error} retryLabel={a("attrs.retry")} onRetry={() => void catalog.refetch()} />;
  } else {
    body = (
      <AttributesTable
        entries={catalog.data}
        onAction={(action, entry) => {
          setNotice(null);
          if (action === "edit") setEditing({ entry });
          else setRemoving(entry);
        }}
      />
    );
  }

  return (
    <section className="clients">
      <div className="clients__head">
        <h1 className="page-title">{a("attrs.title")}</h1>
        <Button variant="primary" onClick={() => setEditing({})}>
          {a("attrs.new")}
        </Button>
      </div>
      <p className="muted attr-intro">{a("attrs.intro")}</p>
      <Notice text={notice} />
      {body}
      <Dialog open={!!editing} title={editing?.entry ? a("form.editTitle", { name: editing.entry.name }) : a("form.createTitle")} onClose={() => setEditing(null)} wide>
        <AttributeDefForm
          key={editing?.entry?.name ?? "new"}
          def={editing?.entry}
          onCancel={() => setEditing(null)}
          onSaved={(name) => {
            setEditing(null);
            setNotice(a("attrs.saved", { name }));
          }}
        />
      </Dialog>
      <ConfirmDialog
        open={!!removing}
        title={a("attrs.removeTitle", { name: removing?.name ?? "" })}
        body={a("attrs.removeBody")}
        confirmLabel={a("attrs.remove")}
        cancelLabel={a("attrs.cancel")}
        danger
        pending={remove.isPending}
        error={remove.error ? (appCodeOf(remove.error) === "attribute.builtin" ? a("form.builtin") : messageOf(remove.error, t)) : undefined}
        onConfirm={() => removing && remove.mutate({ name: removing.name })}
        onClose={() => {
          setRemoving(null);
          remove.reset();
        }}
      />
    </section>
  );
}
