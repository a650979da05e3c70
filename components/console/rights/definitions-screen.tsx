"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TRightDefinition } from "@/server/rights/rights.schemas";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { appCodeOf } from "../call-errors.ts";
import { ListStates, Notice } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { DefinitionForm } from "./definition-form.tsx";
import { DefinitionsTable } from "./definitions-table.tsx";
import { useRightsText } from "./i18n.ts";
import { rightsMessageOf } from "./rights-errors.ts";
// Names, the intro and the kinds' fieldsets look as on the attributes page.
import "../attributes/attributes.css";
import "./rights.css";

type TEditing = { def?: TRightDefinition } | null;

/** The right definitions: what may be granted, to whom and on what, with how often each is granted. */
export function DefinitionsScreen() {
  const { t } = useI18n();
  const r = useRightsText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const defs = useQuery(trpc.console.rights.definitions.queryOptions());
  const [editing, setEditing] = useState<TEditing>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const remove = useMutation(trpc.console.rights.removeDefinition.mutationOptions());
  // The count comes from the list as it is now: a grant made meanwhile refuses the plain delete, and the refreshed count asks again.
  const grants = defs.data?.find((d) => d.name === removing)?.grants ?? 0;
  const inUse = appCodeOf(remove.error) === "rights.definition_in_use";

  const refresh = () => {
    void queryClient.invalidateQueries(trpc.console.rights.definitions.pathFilter());
    // The rights browser's panels of parties seen before would show the deleted grants while they
    // reload: dropped instead (rights-browser-screen.tsx does the same after a grant or revoke).
    queryClient.removeQueries({ ...trpc.console.rights.browse.pathFilter(), type: "inactive" });
    void queryClient.invalidateQueries(trpc.console.rights.browse.pathFilter());
  };
  const confirmDelete = (name: string) =>
    remove.mutate(
      { name, force: grants > 0 },
      {
        onSuccess: () => {
          setRemoving(null);
          setNotice(grants ? r("defs.deletedWith", { name, count: String(grants) }) : r("defs.deleted", { name }));
          refresh();
        },
        onError: (e) => {
          if (appCodeOf(e) === "rights.definition_in_use") refresh();
        },
      },
    );
  const closeDelete = () => {
    setRemoving(null);
    remove.reset();
  };

  return (
    <section className="clients">
      <div className="clients__head">
        <h1 className="page-title">{r("defs.title")}</h1>
        <Button variant="primary" onClick={() => setEditing({})}>
          {r("defs.new")}
        </Button>
      </div>
      <p className="muted attr-intro">{r("defs.intro")}</p>
      <Notice text={notice} />
      <ListStates query={defs} count={defs.data?.length ?? 0} loading={r("defs.loading")} failed={r("defs.loadFailed")} retry={r("browser.retry")} empty={r("defs.empty")}>
        <DefinitionsTable
          defs={defs.data ?? []}
          onAction={(action, def) => {
            setNotice(null);
            if (action === "edit") setEditing({ def });
            else setRemoving(def.name);
          }}
        />
      </ListStates>
      <Dialog open={!!editing} title={editing?.def ? r("form.editTitle", { name: editing.def.name }) : r("form.createTitle")} onClose={() => setEditing(null)} wide>
        <DefinitionForm
          key={editing?.def?.name ?? "new"}
          def={editing?.def}
          onCancel={() => setEditing(null)}
          onSaved={(name) => {
            setEditing(null);
            setNotice(r("defs.saved", { name }));
          }}
        />
      </Dialog>
      <ConfirmDialog
        open={!!removing}
        title={r("defs.deleteTitle", { name: removing ?? "" })}
        body={grants ? r("defs.deleteUsed", { count: String(grants) }) : r("defs.deleteUnused")}
        confirmLabel={grants ? r("defs.deleteForce", { count: String(grants) }) : r("defs.delete")}
        cancelLabel={r("browser.cancel")}
        danger
        pending={remove.isPending}
        error={remove.error ? (inUse ? r("defs.grantedMeanwhile") : rightsMessageOf(remove.error, r, t)) : undefined}
        onConfirm={() => removing && confirmDelete(removing)}
        onClose={closeDelete}
      />
    </section>
  );
}
