"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { TConsolePartyType } from "@/server/rights/api/console";
import { Button } from "../../ui/button.tsx";
import { TextField } from "../../ui/field.tsx";
import { LoadFailedState } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { useDebounced } from "../use-debounced.ts";
import { useRightsText, type TRightsKey } from "./i18n.ts";
import type { TParty } from "./parties.ts";

const SEARCH_DELAY_MS = 300;

/** What the search box is called for each kind of party the console picks; a new kind adds its entry. */
const PICK_LABEL: Record<TConsolePartyType, TRightsKey> = { user: "browser.pickUser", its: "browser.pickApp", grps: "browser.pickGroup" };
// Groups are found by the start of their id, not by names.
const PICK_HINT: Record<TConsolePartyType, TRightsKey> = { user: "browser.searchHint", its: "browser.searchHint", grps: "browser.groupHint" };
/** Every stored type of party by name. */
export const KIND_KEY: Record<string, TRightsKey> = { user: "kind.user", its: "kind.application", grps: "kind.group" };

export type TPicked = TParty & { label: string };

type TProps = {
  type: TConsolePartyType;
  value: TPicked | null;
  onChange: (party: TPicked | null) => void;
  /** Accounts already in this group are not offered (the group's member picker). */
  notInGroup?: string;
  /** The accessible name of a match's button, when a click does more than pick (e.g. "Add …"). */
  actionLabel?: (party: TPicked) => string;
  disabled?: boolean;
};

/**
 * A search box over the users' or the applications' console search, and its matches as buttons: a
 * click picks one. Once picked it shows which, with a way to pick again.
 */
export function PartyPicker({ type, value, onChange, notInGroup, actionLabel, disabled }: TProps) {
  const r = useRightsText();
  const trpc = useTRPC();
  const resultsId = useId();
  const [text, setText] = useState("");
  const search = useDebounced(text.trim(), SEARCH_DELAY_MS);
  const found = useQuery(trpc.console.rights.findParties.queryOptions({ type, search, notInGroup }, { enabled: !value, placeholderData: keepPreviousData }));

  if (value) {
    return (
      <div className="party-chosen">
        <span role="status">{r("browser.chosen", { party: value.label ? `${value.label} (${value.id})` : value.id })}</span>
        <Button size="sm" onClick={() => onChange(null)}>
          {r("browser.change")}
        </Button>
      </div>
    );
  }
  if (found.isError) return <LoadFailedState label={r("browser.loadFailed")} error={found.error} retryLabel={r("browser.retry")} onRetry={() => void found.refetch()} />;
  const options = found.data ?? [];
  return (
    <div className="party-picker">
      <TextField
        label={r(PICK_LABEL[type])}
        hint={r(PICK_HINT[type])}
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        // Enter in the box must not submit the grant form around it.
        onKeyDown={(e) => e.key === "Enter" && e.preventDefault()}
        aria-controls={resultsId}
        autoComplete="off"
        spellCheck={false}
      />
      <div id={resultsId} className="party-options" aria-busy={found.isFetching}>
        {found.isPending ? (
          <p className="muted" role="status">
            {r("browser.searching")}
          </p>
        ) : options.length === 0 ? (
          <p className="muted" role="status">
            {r("browser.noMatch")}
          </p>
        ) : (
          <ul aria-label={r("browser.results")}>
            {options.map((o) => (
              <li key={o.id}>
                <Button size="sm" variant="ghost" onClick={() => onChange(o)} aria-label={actionLabel?.(o)} disabled={disabled}>
                  {o.label ? <span>{o.label}</span> : null}
                  <code className="party-options__id">{o.id}</code>
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
