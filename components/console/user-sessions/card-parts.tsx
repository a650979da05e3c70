"use client";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useCan } from "../viewer.tsx";
import { Button } from "../../ui/button.tsx";
import { ListStates } from "../list-parts.tsx";
import { useUserSessionsText } from "./i18n.ts";

type TCardProps = { id: string; title: string; actions?: ReactNode; children: ReactNode };

/** A card of the user page, named by its heading, with actions beside the heading. */
export function Card({ id, title, actions, children }: TCardProps) {
  return (
    <section className="user-panel" aria-labelledby={id}>
      <div className="user-card__head">
        <h2 id={id} className="user-section__title">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

type TBodyProps<R> = { query: UseQueryResult<R[], unknown>; loading: string; failed: string; empty: string; children: (rows: R[]) => ReactNode };

/** A card's list: loading, failed (with a retry), empty, or the rows. */
export function CardBody<R>({ query, loading, failed, empty, children }: TBodyProps<R>) {
  const s = useUserSessionsText();
  return (
    <ListStates query={query} count={query.data?.length ?? 0} loading={loading} failed={failed} retry={s("common.retry")} empty={empty}>
      {query.data ? children(query.data) : null}
    </ListStates>
  );
}

/**
 * A row's action button, named with the row ("Sign out Firefox, Linux") for assistive tools; not
 * shown to a viewer whose console role lacks `needs` (the server would refuse it anyway).
 */
export function RowAction({ label, row, onClick, needs = "manage_users" }: { label: string; row: string; onClick: () => void; needs?: "manage_users" | "configure" }) {
  if (!useCan(needs)) return null;
  return (
    <Button size="sm" variant="ghost" onClick={onClick}>
      {label}
      <span className="ui-visually-hidden"> {row}</span>
    </Button>
  );
}
