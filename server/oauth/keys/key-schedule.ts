/*
 * Which signing key signs and which are published, as a pure function of the rows and the time, so
 * every instance reaches the same answer without talking to the others, and the answer changes at
 * moments known in advance (a rotated-in key starts signing, a retired key's last token expires).
 *
 * A key's life: published from its insertion; signs from `signsFrom` (the rotation sets it a few
 * minutes ahead, so resource servers that cache the JWKS fetch the new key before its first token);
 * stops signing at `retiredAt` (the moment its successor starts); stays published until every token
 * it can have signed has expired. A key withdrawn as compromised (`withdrawnAt`) is neither signing
 * nor published from that moment. The times come from the database's clock.
 */

/**
 * The longest a token signed by us can live: access and ID token lifetimes are capped at one day
 * (IDP_ACCESS_TOKEN_TTL and the clients' tokenLifetimes). Refresh tokens are opaque, not signed.
 */
export const LONGEST_SIGNED_TOKEN_S = 86_400;

export type TScheduledKey = { kid: string; signsFrom: Date; retiredAt: Date | null; withdrawnAt?: Date | null };

export type TKeySchedule<K extends TScheduledKey> = {
  /** The key that signs now. */
  signing: K;
  /** The keys in the JWKS: signing, waiting to sign, and retired with tokens possibly alive. */
  published: K[];
  /** When this answer stops being true (epoch ms), or undefined when nothing is scheduled. */
  changesAt: number | undefined;
};

const publishedUntil = (k: TScheduledKey) => (k.retiredAt ? k.retiredAt.getTime() + LONGEST_SIGNED_TOKEN_S * 1000 : Infinity);

/** The newest first; ties (keys inserted in the same millisecond) by kid, as every instance sorts alike. */
const newest = <K extends TScheduledKey>(keys: K[]) => [...keys].sort((a, b) => b.signsFrom.getTime() - a.signsFrom.getTime() || (a.kid < b.kid ? -1 : 1))[0];

export function keySchedule<K extends TScheduledKey>(rows: readonly K[], now: number): TKeySchedule<K> {
  // A withdrawn key (compromised) is gone at once, whatever this instance's clock says.
  const published = rows.filter((k) => !k.withdrawnAt && publishedUntil(k) > now);
  const inForce = published.filter((k) => k.signsFrom.getTime() <= now && (!k.retiredAt || k.retiredAt.getTime() > now));
  // None in force by this clock (it runs behind the one that rotated): the key meant to sign next,
  // rather than no key at all, which would refuse every token.
  const signing = newest(inForce) ?? newest(published.filter((k) => !k.retiredAt)) ?? newest(published);
  if (!signing) throw new Error("no signing key is in force; the server did not finish starting");
  const moments = published.flatMap((k) => [k.signsFrom.getTime(), k.retiredAt?.getTime() ?? Infinity, publishedUntil(k)]).filter((t) => t > now && t !== Infinity);
  return { signing, published, changesAt: moments.length ? Math.min(...moments) : undefined };
}

export type TKeyState = "waiting" | "signing" | "verifying" | "retired" | "withdrawn";

/** What a key does at `now` under `schedule`, as the console shows it. */
export function keyState(k: TScheduledKey, schedule: TKeySchedule<TScheduledKey>, now: number): TKeyState {
  if (k.withdrawnAt) return "withdrawn";
  if (k.kid === schedule.signing.kid) return "signing";
  if (!schedule.published.some((p) => p.kid === k.kid)) return "retired";
  return k.signsFrom.getTime() > now ? "waiting" : "verifying";
}
