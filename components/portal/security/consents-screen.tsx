"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import type { TColumn } from "../../ui/table.tsx";
import { formatTime } from "../portal-states.tsx";
import { useTRPC, type TPortalOutputs } from "../trpc.ts";
import { scopeWords, useSecurityText } from "./i18n.ts";
import { RemovableList } from "./removable-list.tsx";

type TConsent = TPortalOutputs["consents"]["list"][number];

function useConsentColumns(): (ask: (c: TConsent) => void) => TColumn<TConsent>[] {
  const s = useSecurityText();
  const { lang } = useI18n();
  return (ask) => [
    {
      key: "app",
      header: s("consents.col.app"),
      cell: (c) => (
        <span className="device-cell">
          <strong>{c.clientName}</strong>
          {c.clientName !== c.clientId ? <code className="muted">{c.clientId}</code> : null}
        </span>
      ),
    },
    {
      key: "scopes",
      header: s("consents.col.scopes"),
      cell: (c) => (
        <ul className="scope-words">
          {c.scopes.map((scope) => (
            <li key={scope}>{scopeWords(s, scope)}</li>
          ))}
        </ul>
      ),
    },
    { key: "updated", header: s("consents.col.updated"), cell: (c) => formatTime(c.updated, lang) },
    {
      key: "actions",
      header: <span className="ui-visually-hidden">{s("consents.col.actions")}</span>,
      className: "cell-actions",
      cell: (c) => (
        <Button size="sm" variant="danger" onClick={() => ask(c)}>
          {s("consents.revoke")}
          <span className="ui-visually-hidden"> {c.clientName}</span>
        </Button>
      ),
    },
  ];
}

/** The applications the person allowed, each with "Revoke" (the consent and the application's tokens go). */
export function ConsentsScreen() {
  const s = useSecurityText();
  const trpc = useTRPC();
  const consents = useQuery(trpc.portal.consents.list.queryOptions());
  const revoke = useMutation(trpc.portal.consents.revoke.mutationOptions());
  return (
    <RemovableList
      texts={{
        title: s("consents.title"),
        intro: s("consents.intro"),
        loadFailed: s("consents.loadFailed"),
        empty: s("consents.empty"),
        caption: s("consents.caption"),
        confirmTitle: (c) => s("consents.confirmTitle", { name: c.clientName }),
        confirmBody: (c) => s("consents.confirmBody", { name: c.clientName }),
        confirmLabel: s("consents.revoke"),
        removed: (c) => s("consents.revoked", { name: c.clientName }),
        gone: s("consents.gone"),
      }}
      query={consents}
      columns={useConsentColumns()}
      rowKey={(c) => c.id}
      remove={(c) => revoke.mutateAsync({ id: c.id })}
      notFoundCode="consent.not_found"
      afterRemove={() => false}
    />
  );
}
