import Link from "next/link";
import { userHref } from "./users-table.tsx";

export type TPersonLabel = { name: string | null; login: string | null; email: string | null };

/**
 * An account where the console mentions one: its name as the link, its login or e-mail beside it,
 * and the id as a detail underneath. An account that no longer exists shows its id alone.
 */
export function PersonLink({ sub, person }: { sub: string; person: TPersonLabel | null }) {
  const title = person?.name ?? person?.login ?? person?.email ?? sub;
  const aside = person?.name ? (person.login ?? person.email) : person?.login ? person.email : null;
  return (
    <span className="person-link">
      <Link href={userHref(sub)} className="user-link">
        {title}
      </Link>
      {aside ? <span className="muted"> ({aside})</span> : null}
      {title !== sub ? (
        <>
          <br />
          <code className="muted person-link__id">{sub}</code>
        </>
      ) : null}
    </span>
  );
}
