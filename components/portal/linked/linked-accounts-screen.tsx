"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { Button } from "../../ui/button.tsx";
import type { TColumn } from "../../ui/table.tsx";
import { usePortalErrorText } from "../portal-errors.ts";
import { Notice, type TNotice } from "../portal-states.tsx";
import { RemovableList } from "../security/removable-list.tsx";
import { useTRPC, type TPortalOutputs } from "../trpc.ts";
import { useLinkedText, type TLinkedKey, type TLinkedText } from "./i18n.ts";

type TLinked = TPortalOutputs["linkedAccounts"]["list"]["accounts"][number];
type TProvider = TPortalOutputs["linkedAccounts"]["list"]["providers"][number];

const nameOf = (a: TLinked) => a.userName || a.sid;
/** The callback's error codes (server/federation/external-auth/bind-outcome.ts) the page has words for. */
const KNOWN_ERRORS = new Set(["fa_bound_to_other_user", "fp_refused", "fp_unavailable"]);

/**
 * What the provider's round trip came back with (the callback's query parameters): only fixed words
 * are shown, never the description from the query, which anyone could put into a link.
 */
function outcomeOf(l: TLinkedText, query: URLSearchParams): TNotice {
  const error = query.get("result") === "error" ? (query.get("error") ?? "") : undefined;
  if (error !== undefined) return { text: l(KNOWN_ERRORS.has(error) ? (`linked.error.${error}` as TLinkedKey) : "linked.error.other"), error: true };
  return query.get("result") === "bound" ? { text: l("linked.bound") } : null;
}

/** The outcome once, then the address without it, so a reload does not tell it again. */
function useOutcome(l: TLinkedText): TNotice {
  const query = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const [outcome] = useState(() => outcomeOf(l, query));
  useEffect(() => {
    if (query.has("result") || query.has("error")) router.replace(pathname);
  }, [query, router, pathname]);
  return outcome;
}

function useColumns(l: TLinkedText): (ask: (a: TLinked) => void) => TColumn<TLinked>[] {
  return (ask) => [
    { key: "provider", header: l("linked.col.provider"), cell: (a) => a.fpName },
    { key: "name", header: l("linked.col.name"), cell: (a) => <strong>{nameOf(a)}</strong> },
    {
      key: "actions",
      header: <span className="ui-visually-hidden">{l("linked.col.actions")}</span>,
      className: "cell-actions",
      cell: (a) => (
        <Button size="sm" variant="danger" onClick={() => ask(a)}>
          {l("linked.unlink")}
          <span className="ui-visually-hidden"> {`${a.fpName} ${nameOf(a)}`}</span>
        </Button>
      ),
    },
  ];
}

/** One button per configured provider: the service sends the browser there, and the callback back here. */
function LinkProviders({ providers }: { providers: TProvider[] }) {
  const l = useLinkedText();
  const reason = usePortalErrorText();
  const trpc = useTRPC();
  const link = useMutation(trpc.portal.linkedAccounts.link.mutationOptions({ onSuccess: ({ redirectTo }) => window.location.assign(redirectTo) }));
  return (
    <section className="portal-section" aria-labelledby="link-heading">
      <h2 id="link-heading">{l("linked.add")}</h2>
      <p className="portal-intro">{l("linked.addIntro")}</p>
      {link.isError ? <Notice text={reason(link.error)} error /> : null}
      {link.isSuccess ? <p role="status">{l("linked.redirecting", { provider: link.variables.fpName })}</p> : null}
      {providers.length === 0 ? (
        <p className="state">{l("linked.noProviders")}</p>
      ) : (
        <div className="actions">
          {providers.map((p) => (
            <Button key={p.label} disabled={link.isPending || link.isSuccess} onClick={() => link.mutate({ fpType: p.fpType, fpName: p.fpName })}>
              {l("linked.linkWith", { provider: p.fpName })}
            </Button>
          ))}
        </div>
      )}
    </section>
  );
}

/** The person's linked external accounts, each removable, and a way to link more. */
export function LinkedAccountsScreen() {
  const l = useLinkedText();
  const trpc = useTRPC();
  const outcome = useOutcome(l);
  const list = useQuery(trpc.portal.linkedAccounts.list.queryOptions());
  const accounts = useQuery({ ...trpc.portal.linkedAccounts.list.queryOptions(), select: (d) => d.accounts });
  const unlink = useMutation(trpc.portal.linkedAccounts.unlink.mutationOptions());
  return (
    <>
      <RemovableList
        texts={{
          title: l("linked.title"),
          intro: l("linked.intro"),
          loadFailed: l("linked.loadFailed"),
          empty: l("linked.empty"),
          caption: l("linked.caption"),
          confirmTitle: (a) => l("linked.confirmTitle", { name: nameOf(a) }),
          confirmBody: (a) => l("linked.confirmBody", { provider: a.fpName }),
          confirmLabel: l("linked.unlink"),
          removed: (a) => l("linked.unlinked", { name: nameOf(a) }),
          gone: l("linked.gone"),
        }}
        initialNotice={outcome}
        query={accounts}
        columns={useColumns(l)}
        rowKey={(a) => `${a.fpType}:${a.fpName}:${a.sid}`}
        remove={(a) => unlink.mutateAsync({ fpType: a.fpType as TProvider["fpType"], fpName: a.fpName, sid: a.sid })}
        notFoundCode="federation.binding_not_found"
        afterRemove={() => false}
      />
      {list.data ? <LinkProviders providers={list.data.providers} /> : null}
    </>
  );
}
