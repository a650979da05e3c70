"use client";
import Link from "next/link";
import { useId } from "react";
import { CONSOLE_PARTY_TYPES, type TPartyGrants } from "@/server/rights/api/console";
import type { TPersonLabel } from "../users/person-link.tsx";
import { Button } from "../../ui/button.tsx";
import { Table, type TColumn } from "../../ui/table.tsx";
import { Card } from "../user-sessions/card-parts.tsx";
import { useRightsText } from "./i18n.ts";
import { browseHref, rowsOf, type TDirection, type TGrantRow, type TParty } from "./parties.ts";
import { KIND_KEY } from "./party-picker.tsx";

export type TPeople = Record<string, TPersonLabel>;

/** What an account is called: its name, else its login or e-mail; nothing for another kind of party. */
export function personName(party: TParty, people: TPeople): string | null {
  const p = party.type === "user" ? people[party.id] : undefined;
  return p ? (p.name ?? p.login ?? p.email) : null;
}

/** A party in a sentence or a title: "Anna Ivanova (anna)" for a named account, the id otherwise. */
export function partyWords(party: TParty, people: TPeople): string {
  const name = personName(party, people);
  return name ? `${name} (${party.id})` : party.id;
}

/**
 * The other party of a row: a link that browses it when the console can, and its kind. An account
 * is named by its name, its id kept underneath.
 */
export function PartyName({ party, people = {} }: { party: TParty; people?: TPeople }) {
  const r = useRightsText();
  const browsable = (CONSOLE_PARTY_TYPES as readonly string[]).includes(party.type);
  const id = party.ext ? `${party.id} (${party.ext})` : party.id;
  const name = personName(party, people);
  return (
    <span className="attr-name">
      {browsable ? (
        <Link href={browseHref(party)} className="user-link">
          {name ?? id}
        </Link>
      ) : (
        <code className="client-id">{id}</code>
      )}
      <span className="badge badge--off">{r(KIND_KEY[party.type] ?? "kind.user")}</span>
      {name ? <code className="muted person-link__id">{id}</code> : null}
    </span>
  );
}

type TProps = {
  dir: TDirection;
  groups: TPartyGrants[];
  people: TPeople;
  onGrant: () => void;
  /** `tag` null: the whole right. */
  onRevoke: (row: TGrantRow, tag: string | null) => void;
};

/** One side of the browser: the rights the party holds ("of") or those held on it ("on"), each with its tags. */
export function GrantsPanel({ dir, groups, people, onGrant, onRevoke }: TProps) {
  const r = useRightsText();
  const titleId = useId();
  const title = r(dir === "of" ? "browser.of" : "browser.on");
  const rows = rowsOf(groups);
  const columns: TColumn<TGrantRow>[] = [
    { key: "party", header: r(dir === "of" ? "browser.col.object" : "browser.col.subject"), cell: (row) => <PartyName party={row.party} people={people} /> },
    { key: "right", header: r("browser.col.right"), cell: (row) => <code className="client-id">{row.right}</code> },
    {
      key: "tags",
      header: r("browser.col.tags"),
      cell: (row) => (
        <ul className="right-tags">
          {row.tags.map((tag) => (
            <li key={tag} className="right-tag">
              <span>{tag}</span>
              <button type="button" className="right-tag__revoke" aria-label={r("browser.revokeTag", { tag, right: row.right })} title={r("browser.revokeTag", { tag, right: row.right })} onClick={() => onRevoke(row, tag)}>
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ),
    },
    {
      key: "actions",
      header: <span className="ui-visually-hidden">{r("browser.col.actions")}</span>,
      className: "cell-actions",
      cell: (row) => (
        <Button size="sm" variant="ghost" onClick={() => onRevoke(row, null)}>
          {r("browser.revoke")}
          <span className="ui-visually-hidden"> {row.right}</span>
        </Button>
      ),
    },
  ];
  const grant = (
    <Button size="sm" onClick={onGrant}>
      {r("browser.grant")}
    </Button>
  );
  return (
    <Card id={titleId} title={title} actions={grant}>
      {rows.length ? (
        <Table caption={title} columns={columns} rows={rows} rowKey={(row) => row.key} />
      ) : (
        <p className="muted">{r(dir === "of" ? "browser.ofEmpty" : "browser.onEmpty")}</p>
      )}
    </Card>
  );
}
