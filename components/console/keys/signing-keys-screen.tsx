"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import type { AppRouter } from "@/server/trpc/root";
import { DateTime, formatDateTime } from "../../date-time.tsx";
import { useI18n } from "../../i18n-provider.tsx";
import { Button } from "../../ui/button.tsx";
import { ConfirmDialog } from "../../ui/confirm-dialog.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { messageOf } from "../call-errors.ts";
import { ListStates } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { useKeysText, type TKeysKey, type TKeysText } from "./i18n.ts";

/** What the table shows of a key, token or SAML alike. */
type TKey = Pick<inferRouterOutputs<AppRouter>["console"]["signingKeys"]["list"]["keys"][number], "kid" | "state" | "signsFrom" | "retiredAt">;
type TAsk = "rotate" | "compromised" | null;

const when = (d: Date | string | null) => (d ? <DateTime value={d} /> : "—");

function columns(k: TKeysText): TColumn<TKey>[] {
  return [
    { key: "kid", header: k("keys.col.kid"), cell: (r) => <code>{r.kid}</code> },
    { key: "state", header: k("keys.col.state"), cell: (r) => k(`keys.state.${r.state}` as TKeysKey) },
    { key: "signsFrom", header: k("keys.col.signsFrom"), cell: (r) => when(r.signsFrom) },
    { key: "retiredAt", header: k("keys.col.retiredAt"), cell: (r) => when(r.retiredAt) },
  ];
}

/** Seconds as people say them: "10 min", "45 s". */
const duration = (s: number) => (s >= 60 && s % 60 === 0 ? `${s / 60} min` : `${s} s`);

type TRing = {
  keys: { data?: { keys: TKey[]; publishAheadS: number }; isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  rotate: { data?: { kid: string; signsFrom: Date | string }; isPending: boolean; isError: boolean; error: unknown; reset: () => void; mutate: (input: { compromised: boolean }, options: { onSuccess: () => void }) => void };
  /** The words that differ between the token keys and the SAML key: title, intro and what each rotation does. */
  words: Record<"title" | "intro" | "rotateTitle" | "rotateBody" | "compromisedTitle" | "compromisedBody", TKeysKey>;
  headingLevel: 1 | 2;
};

/** One set of keys: the list and the two rotations, each confirmed first. */
function KeyRing({ keys, rotate, words, headingLevel }: TRing) {
  const { t, lang } = useI18n();
  const k = useKeysText();
  const [ask, setAsk] = useState<TAsk>(null);
  const ahead = keys.data ? duration(keys.data.publishAheadS) : "…";
  const signsAt = formatDateTime(Date.now() + (keys.data?.publishAheadS ?? 0) * 1000, lang);
  const Heading = headingLevel === 1 ? "h1" : "h2";
  return (
    <section className="signing-keys" aria-labelledby={`keys-${words.title}`}>
      <Heading id={`keys-${words.title}`} className={headingLevel === 1 ? "page-title" : "signing-keys__title"}>
        {k(words.title)}
      </Heading>
      <p className="muted">{k(words.intro, { ahead })}</p>
      <div className="signing-keys__actions">
        <Button variant="primary" onClick={() => (rotate.reset(), setAsk("rotate"))}>
          {k("keys.rotate")}
          <span className="ui-visually-hidden"> ({k(words.title)})</span>
        </Button>
        <Button variant="danger" onClick={() => (rotate.reset(), setAsk("compromised"))}>
          {k("keys.compromised")}
          <span className="ui-visually-hidden"> ({k(words.title)})</span>
        </Button>
      </div>
      {rotate.data ? (
        <p className="ui-alert ui-alert--info" role="status">
          {k("keys.rotated", { kid: rotate.data.kid, at: formatDateTime(rotate.data.signsFrom, lang) })}
        </p>
      ) : null}
      <ListStates query={keys} count={keys.data?.keys.length ?? 0} loading={k("keys.loading")} failed={k("keys.loadFailed")} retry={k("common.retry")} empty={k("keys.empty")}>
        {keys.data ? <Table caption={k(words.title)} columns={columns(k)} rows={keys.data.keys} rowKey={(r) => r.kid} /> : null}
      </ListStates>
      <ConfirmDialog
        open={ask !== null}
        title={ask === "compromised" ? k(words.compromisedTitle) : k(words.rotateTitle)}
        body={ask === "compromised" ? k(words.compromisedBody) : k(words.rotateBody, { at: signsAt })}
        confirmLabel={ask === "compromised" ? k("keys.compromised") : k("keys.rotate")}
        cancelLabel={k("keys.cancel")}
        danger={ask === "compromised"}
        pending={rotate.isPending}
        error={rotate.isError ? messageOf(rotate.error, t) : undefined}
        onConfirm={() => rotate.mutate({ compromised: ask === "compromised" }, { onSuccess: () => setAsk(null) })}
        onClose={() => setAsk(null)}
      />
    </section>
  );
}

/** The keys tokens are signed with (published in the JWKS), and the SAML key (published in the SAML metadata), rotated apart. */
export function SigningKeysScreen() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const tokenKeys = useQuery(trpc.console.signingKeys.list.queryOptions());
  const rotateToken = useMutation(trpc.console.signingKeys.rotate.mutationOptions({ onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.console.signingKeys.list.queryKey() }) }));
  const samlKeys = useQuery(trpc.console.samlKeys.list.queryOptions());
  const rotateSaml = useMutation(trpc.console.samlKeys.rotate.mutationOptions({ onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.console.samlKeys.list.queryKey() }) }));
  return (
    <>
      <KeyRing
        keys={tokenKeys}
        rotate={rotateToken}
        headingLevel={1}
        words={{ title: "keys.title", intro: "keys.intro", rotateTitle: "keys.rotateTitle", rotateBody: "keys.rotateBody", compromisedTitle: "keys.compromisedTitle", compromisedBody: "keys.compromisedBody" }}
      />
      <KeyRing
        keys={samlKeys}
        rotate={rotateSaml}
        headingLevel={2}
        words={{ title: "saml.title", intro: "saml.intro", rotateTitle: "saml.rotateTitle", rotateBody: "saml.rotateBody", compromisedTitle: "saml.compromisedTitle", compromisedBody: "saml.compromisedBody" }}
      />
    </>
  );
}
