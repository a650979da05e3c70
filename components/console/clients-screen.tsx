"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useI18n } from "../i18n-provider.tsx";
import { Button } from "../ui/button.tsx";
import { Dialog } from "../ui/dialog.tsx";
import { LoadFailedState, LoadingState, Notice, SearchBar } from "./list-parts.tsx";
import { ClientForm } from "./client-form.tsx";
import { ClientsTable, type TRowAction } from "./clients-table.tsx";
import { CredentialDialogs, type TCredentialAction } from "./credential-dialogs.tsx";
import { OneTimeSecret, type TOneTimeSecret } from "./one-time-secret.tsx";
import type { TConsoleClient } from "./trpc.ts";
import { useClientPages, type TClientPages } from "./use-client-pages.ts";
import { useDebounced } from "./use-debounced.ts";
import { useClientsText } from "./clients/i18n.ts";
import { handOverSecret } from "./clients/secret-handoff.ts";
import { useCan } from "./viewer.tsx";
import "./clients/clients.css";

const SEARCH_DELAY_MS = 300;

type TEditing = { client?: TConsoleClient } | null;

type TListBodyProps = { search: string; pages: TClientPages; onAction: (action: TRowAction, client: TConsoleClient) => void };

/** Whichever the list is in: loading, failed, empty (or no match), or the table. */
function ListBody({ search, pages, onAction }: TListBodyProps) {
  const { t } = useI18n();
  const { first, clients } = pages;
  if (first.isPending) return <LoadingState label={t("clients.loading")} />;
  if (first.isError) return <LoadFailedState label={t("clients.loadFailed")} error={first.error} retryLabel={t("clients.retry")} onRetry={() => void first.refetch()} />;
  if (clients.length === 0) {
    return (
      <div className="state state--empty">
        <p className="state__title">{search ? t("clients.noMatch", { q: search }) : t("clients.empty")}</p>
        {search ? null : <p className="muted">{t("clients.emptyHint")}</p>}
      </div>
    );
  }
  return <ClientsTable clients={clients} onAction={onAction} />;
}

/** `deleted`: the application just deleted on its own page, to say so here where it is gone from the list. */
export function ClientsScreen({ deleted }: { deleted?: string }) {
  const { t } = useI18n();
  const c = useClientsText();
  const router = useRouter();
  const configures = useCan("configure");
  const [searchText, setSearchText] = useState("");
  const search = useDebounced(searchText.trim(), SEARCH_DELAY_MS);
  const pages = useClientPages(search);
  const [editing, setEditing] = useState<TEditing>(null);
  const [credential, setCredential] = useState<TCredentialAction>(null);
  const [secret, setSecret] = useState<TOneTimeSecret | null>(null);
  const [notice, setNotice] = useState<string | null>(deleted ? c("delete.done", { id: deleted }) : null);

  return (
    <section className="clients">
      <div className="clients__head">
        <h1 className="page-title">{t("clients.title")}</h1>
        {configures ? (
          <Button variant="primary" onClick={() => setEditing({})}>
            {t("clients.new")}
          </Button>
        ) : null}
      </div>

      <SearchBar
        label={t("clients.search")}
        placeholder={t("clients.searchPlaceholder")}
        value={searchText}
        onChange={setSearchText}
        busy={pages.first.isFetching && !pages.first.isPending}
      />

      <Notice text={notice} />

      <ListBody
        search={search}
        pages={pages}
        onAction={(kind, client) => {
          setNotice(null);
          if (kind === "edit") setEditing({ client });
          else setCredential({ kind, client });
        }}
      />

      {pages.loadMore || pages.loadingMore ? (
        <div className="clients__more">
          <Button onClick={() => pages.loadMore?.()} disabled={pages.loadingMore}>
            {pages.loadingMore ? t("clients.loading") : t("clients.loadMore")}
          </Button>
        </div>
      ) : null}

      <Dialog
        open={!!editing}
        title={editing?.client ? t("form.editTitle", { id: editing.client.id }) : t("form.createTitle")}
        onClose={() => setEditing(null)}
        wide
      >
        <ClientForm
          key={editing?.client?.id ?? "new"}
          client={editing?.client}
          onCancel={() => setEditing(null)}
          onSaved={() => setEditing(null)}
          onCreated={(client, value) => {
            // The new application's page has what to copy into it; its secret goes there in memory.
            if (value) handOverSecret(client.id, value);
            router.push(`/console/clients/${encodeURIComponent(client.id)}`);
          }}
        />
      </Dialog>

      <CredentialDialogs action={credential} onClose={() => setCredential(null)} onSecret={setSecret} onNotice={setNotice} />

      <OneTimeSecret secret={secret} onClose={() => setSecret(null)} />
    </section>
  );
}
