"use client";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { Button } from "../../ui/button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { LoadFailedState, LoadingState, Notice, SearchBar } from "../list-parts.tsx";
import { useDebounced } from "../use-debounced.ts";
import { useCan } from "../viewer.tsx";
import { CreateUserForm } from "./create-user-form.tsx";
import { labelOfAccount, personTitle, type TPersonLabel } from "./person-link.tsx";
import { useUsersText } from "./i18n.ts";
import { BulkBar } from "./bulk-bar.tsx";
import { useBulkText } from "./bulk-i18n.ts";
import { PAGE_SIZES, useUserList, type TUserList } from "./use-user-list.ts";
import { userHref, UsersTable, type TSelection } from "./users-table.tsx";
import "./users.css";

const SEARCH_DELAY_MS = 300;

/** Whichever the list is in: loading, failed, empty (or no match), or the table with its pager. */
function ListBody({ list, selection }: { list: TUserList; selection: TSelection }) {
  const u = useUsersText();
  const b = useBulkText();
  const { query } = list;
  if (query.isPending) return <LoadingState label={u("users.loading")} />;
  if (query.isError) return <LoadFailedState label={u("users.loadFailed")} error={query.error} retryLabel={u("users.retry")} onRetry={() => void query.refetch()} />;
  const { items, total } = query.data;
  if (items.length === 0 && !list.prev) {
    return (
      <div className="state state--empty">
        <p className="state__title">{list.search ? u("users.noMatch", { q: list.search }) : u("users.empty")}</p>
      </div>
    );
  }
  const range = { from: String(items.length ? list.offset + 1 : list.offset), to: String(list.offset + items.length), total: String(total) };
  return (
    <>
      <UsersTable users={items} selection={selection} sorting={{ order: list.order, setOrder: list.setOrder }} />
      <nav className="users__pager" aria-label={u("users.pager")}>
        <label className="users__size">
          {b("bulk.pageSize")}
          <select className="ui-input" value={list.size} onChange={(e) => list.setSize(Number(e.target.value))}>
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <Button onClick={() => list.prev?.()} disabled={!list.prev}>
          {u("users.prev")}
        </Button>
        <span className="muted" role="status" data-testid="users-range">
          {u("users.range", range)}
        </span>
        <Button onClick={() => list.next?.()} disabled={!list.next}>
          {u("users.next")}
        </Button>
      </nav>
    </>
  );
}

/** "User Anna Smirnova (anna@example.org) created." naming the person as the console does elsewhere, the id after it. */
function CreatedText({ sub, person }: { sub: string; person: TPersonLabel }) {
  const u = useUsersText();
  const { title, aside } = personTitle(sub, person);
  return (
    <>
      {u("users.created", { name: aside ? `${title} (${aside})` : title })}
      {title !== sub ? (
        <>
          {" "}
          <code className="muted">{sub}</code>
        </>
      ) : null}
    </>
  );
}

/**
 * The search box: the URL follows typing, and the text follows the URL when something else changes
 * it (the Users link in the header). While a search of ours is on its way into the URL, an earlier
 * one arriving there must not overwrite what is being typed.
 */
function SearchBox({ list }: { list: TUserList }) {
  const u = useUsersText();
  const [text, setText] = useState(list.search);
  const typed = useDebounced(text.trim(), SEARCH_DELAY_MS);
  const sent = useRef(list.search);
  const inFlight = useRef(false);
  const { search, setSearch } = list;
  useEffect(() => {
    if (typed === sent.current) return;
    sent.current = typed;
    inFlight.current = true;
    setSearch(typed);
  }, [typed, setSearch]);
  useEffect(() => {
    if (search === sent.current) inFlight.current = false;
    if (search === sent.current || inFlight.current) return;
    sent.current = search;
    setText(search);
  }, [search]);
  return (
    <SearchBar
      label={u("users.search")}
      placeholder={u("users.searchPlaceholder")}
      value={text}
      onChange={setText}
      busy={list.query.isFetching && !list.query.isPending}
    />
  );
}

export function UsersScreen() {
  const u = useUsersText();
  const list = useUserList();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ sub: string; person: TPersonLabel } | null>(null);
  const [bulkNotice, setBulkNotice] = useState<{ text: string; error: boolean } | null>(null);
  const canCreate = useCan("manage_users");
  // The selection is of the rows shown: another page, search, order or size starts it afresh.
  const [picked, setPicked] = useState<{ key: string; subs: Set<string> }>({ key: "", subs: new Set() });
  const rows = list.query.data?.items ?? [];
  const key = `${list.search}|${list.order.sort}|${list.order.dir}|${list.offset}|${list.size}`;
  const selected = picked.key === key ? picked.subs : new Set<string>();
  const selection: TSelection = {
    selected,
    toggle: (sub, on) => {
      const next = new Set(selected);
      if (on) next.add(sub);
      else next.delete(sub);
      setPicked({ key, subs: next });
    },
    setAll: (on) => setPicked({ key, subs: new Set(on ? rows.map((r) => r.sub) : []) }),
  };
  return (
    <section className="clients">
      <div className="clients__head">
        <h1 className="page-title">{u("users.title")}</h1>
        {canCreate ? (
          <Button variant="primary" onClick={() => setCreating(true)}>
            {u("users.new")}
          </Button>
        ) : null}
      </div>
      <SearchBox list={list} />
      <Notice
        text={
          created && (
            <>
              <CreatedText sub={created.sub} person={created.person} /> <Link href={userHref(created.sub)}>{u("users.open")}</Link>
            </>
          )
        }
      />
      <Notice text={bulkNotice?.text} error={bulkNotice?.error} />
      <BulkBar
        selected={rows.filter((r) => selected.has(r.sub)).map((r) => r.sub)}
        onClear={() => setPicked({ key, subs: new Set() })}
        onNotice={(text, error) => setBulkNotice({ text, error })}
      />
      <ListBody list={list} selection={selection} />
      <Dialog open={creating} title={u("create.title")} onClose={() => setCreating(false)} wide>
        <CreateUserForm
          onCancel={() => setCreating(false)}
          onCreated={(user) => {
            setCreating(false);
            setCreated({ sub: user.sub, person: labelOfAccount(user.attributes) });
          }}
        />
      </Dialog>
    </section>
  );
}
