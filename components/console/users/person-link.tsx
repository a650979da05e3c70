import Link from "next/link";
import { userHref } from "./users-table.tsx";

export type TPersonLabel = { name: string | null; login: string | null; email: string | null };

/** How the console names an account: its name, else its login or e-mail, else its id; beside it, the next of those it has. */
export function personTitle(sub: string, person: TPersonLabel | null): { title: string; aside: string | null } {
  const title = person?.name ?? person?.login ?? person?.email ?? sub;
  const aside = person?.name ? (person.login ?? person.email) : person?.login ? person.email : null;
  return { title, aside };
}

/**
 * The label of an account the console has just read in full (created it, say), as the server's
 * labelsOf makes it: given and family name, the e-mail address, and the login it may have.
 */
export function labelOfAccount(attributes: Record<string, unknown>, login: string | null = null): TPersonLabel {
  const name = [attributes.given_name, attributes.family_name].filter((p): p is string => typeof p === "string" && p !== "").join(" ");
  const email = (attributes.email as { value?: unknown } | undefined)?.value;
  return { name: name || null, login, email: typeof email === "string" && email ? email : null };
}

/**
 * An account where the console mentions one: its name as the link, its login or e-mail beside it,
 * and the id as a detail underneath. An account that no longer exists shows its id alone.
 */
export function PersonLink({ sub, person }: { sub: string; person: TPersonLabel | null }) {
  const { title, aside } = personTitle(sub, person);
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
