"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { CONSOLE_PARTY_TYPES, type TConsolePartyType } from "@/server/rights/api/console";
import { useI18n } from "../../i18n-provider.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { SelectField } from "../../ui/field.tsx";
import { LoadFailedState, LoadingState, Notice } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { GrantForm } from "./grant-form.tsx";
import { GrantsPanel, partyWords } from "./grants-panel.tsx";
import { useRightsText } from "./i18n.ts";
import { browseHref, pairOf, partyFromSearch, recordOf, type TBrowsedParty, type TDirection, type TGrantRow, type TParty } from "./parties.ts";
import { KIND_KEY, PartyPicker, type TPicked } from "./party-picker.tsx";
import { rightsMessageOf } from "./rights-errors.ts";
// The panels are the user page's cards; names and the intro look as on the attributes page.
import "../attributes/attributes.css";
import "../users/users.css";
import "../user-sessions/user-sessions.css";
import "./rights.css";

/** The kind of party and the search that picks one; picking puts it in the URL. Keyed by the browsed party, so its kind follows a link. */
function PartyChooser({ party, label, onPick }: { party: TBrowsedParty | null; label: string; onPick: (p: TPicked | null) => void }) {
  const r = useRightsText();
  const [type, setType] = useState<TConsolePartyType>(party?.type ?? "user");
  return (
    <div className="rights-chooser">
      <SelectField label={r("browser.partyType")} value={type} onChange={(e) => setType(e.target.value as TConsolePartyType)} className="rights-chooser__type">
        {CONSOLE_PARTY_TYPES.map((t) => (
          <option key={t} value={t}>
            {r(KIND_KEY[t]!)}
          </option>
        ))}
      </SelectField>
      <PartyPicker key={type} type={type} value={party?.type === type ? { ...party, label } : null} onChange={onPick} />
    </div>
  );
}

type TRevoking = { dir: TDirection; row: TGrantRow; tag: string | null };

/** The two panels of one party, with the grant and revoke dialogs; every change reloads both panels and the usage counts. */
function PartyRights({ party, onNotice }: { party: TBrowsedParty; onNotice: (text: string | null) => void }) {
  const { t } = useI18n();
  const r = useRightsText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const rights = useQuery(trpc.console.rights.browse.queryOptions({ type: party.type, id: party.id, ext: party.ext || undefined }));
  const defs = useQuery(trpc.console.rights.definitions.queryOptions());
  const [granting, setGranting] = useState<TDirection | null>(null);
  const [revoking, setRevoking] = useState<TRevoking | null>(null);
  // A change is reported once both panels show it: the dialog stays busy until they are reloaded.
  // The other parties' panels held in the query cache (the other side of the grant, a party seen
  // before) are dropped, not kept to be shown stale while they reload: a revoke dialog opened on
  // them at once would count the tags before the change.
  const refresh = () => {
    queryClient.removeQueries({ ...trpc.console.rights.browse.pathFilter(), type: "inactive" });
    return Promise.all([queryClient.invalidateQueries(trpc.console.rights.browse.pathFilter()), queryClient.invalidateQueries(trpc.console.rights.definitions.pathFilter())]);
  };
  const revoke = useMutation(
    trpc.console.rights.revoke.mutationOptions({
      onSuccess: async () => {
        await refresh();
        setRevoking(null);
        onNotice(r("browser.revoked"));
      },
    }),
  );

  if (rights.isPending) return <LoadingState label={r("browser.loading")} />;
  if (rights.isError) return <LoadFailedState label={r("browser.loadFailed")} error={rights.error} retryLabel={r("browser.retry")} onRetry={() => void rights.refetch()} />;

  const startGrant = (dir: TDirection) => {
    onNotice(null);
    setGranting(dir);
  };
  const startRevoke = (dir: TDirection) => (row: TGrantRow, tag: string | null) => {
    onNotice(null);
    revoke.reset();
    setRevoking({ dir, row, tag });
  };
  const [subject, object]: [TParty, TParty] = revoking ? pairOf(party, revoking.row.party, revoking.dir) : [party, party];
  const people = rights.data.people;
  const words = { subject: partyWords(subject, people), object: partyWords(object, people), right: revoking?.row.right ?? "", tag: revoking?.tag ?? "", tags: revoking?.row.tags.join(", ") ?? "" };
  const revokeBody = !revoking?.tag ? "browser.revokeRightBody" : revoking.row.tags.length === 1 ? "browser.revokeTagBody" : "browser.revokeTagKeeps";

  return (
    <>
      <div className="rights-panels">
        {rights.data.of ? <GrantsPanel dir="of" groups={rights.data.of} people={people} onGrant={() => startGrant("of")} onRevoke={startRevoke("of")} /> : null}
        <GrantsPanel dir="on" groups={rights.data.on} people={people} onGrant={() => startGrant("on")} onRevoke={startRevoke("on")} />
      </div>
      <Dialog open={!!granting} title={r(granting === "on" ? "grant.titleOn" : "grant.titleOf", { id: partyWords(party, people) })} onClose={() => setGranting(null)} wide>
        {granting && defs.data ? (
          <GrantForm
            party={party}
            dir={granting}
            defs={defs.data}
            onCancel={() => setGranting(null)}
            onGranted={async () => {
              await refresh();
              setGranting(null);
              onNotice(r("browser.granted"));
            }}
          />
        ) : defs.isError ? (
          <LoadFailedState label={r("defs.loadFailed")} error={defs.error} retryLabel={r("browser.retry")} onRetry={() => void defs.refetch()} />
        ) : (
          <LoadingState label={r("defs.loading")} />
        )}
      </Dialog>
      <ConfirmDialog
        open={!!revoking}
        title={revoking?.tag ? r("browser.revokeTagTitle", words) : r("browser.revokeRightTitle", words)}
        body={r(revokeBody, words)}
        confirmLabel={r("browser.revoke")}
        cancelLabel={r("browser.cancel")}
        danger
        pending={revoke.isPending}
        error={revoke.error ? rightsMessageOf(revoke.error, r, t) : undefined}
        onConfirm={() => revoking && revoke.mutate(recordOf(subject, object, [revoking.row.right], revoking.tag ? [revoking.tag] : revoking.row.tags))}
        onClose={() => setRevoking(null)}
      />
    </>
  );
}

/**
 * The rights browser: pick a user or an application, then see the rights it holds (object → right →
 * tags) and those held on it (subject → right → tags), and grant or revoke them.
 */
export function RightsBrowserScreen() {
  const r = useRightsText();
  const router = useRouter();
  const party = partyFromSearch(useSearchParams());
  const partyKey = party ? JSON.stringify([party.type, party.id, party.ext]) : "";
  // The name shown beside a picked party; a party reached by a link or a reload is shown by its id.
  const [labels, setLabels] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const pick = (p: TPicked | null) => {
    setNotice(null);
    if (!p) return router.push("/console/rights");
    setLabels((l) => ({ ...l, [JSON.stringify([p.type, p.id, p.ext])]: p.label }));
    router.push(browseHref(p));
  };
  return (
    <section className="clients">
      <div className="clients__head">
        <h1 className="page-title">{r("browser.title")}</h1>
      </div>
      <p className="muted attr-intro">{r("browser.intro")}</p>
      <PartyChooser key={partyKey} party={party} label={labels[partyKey] ?? ""} onPick={pick} />
      <Notice text={notice} />
      {party ? <PartyRights key={partyKey} party={party} onNotice={setNotice} /> : null}
    </section>
  );
}
