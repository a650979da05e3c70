import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importDocument } from "../../server/import/import.service.ts";
import { invalidateUserTokens } from "../../server/oauth/grants/token-invalidation.service.ts";
import { isCutOff } from "../../server/oauth/tokens/token-cutoffs.ts";
import { startSession } from "../../server/sessions/sessions.service.ts";
import { DB_KINDS, installTestDatabase, type TTestDatabase } from "../support/test-db.ts";

// A cutoff ends every token issued before it; tokens carry iat in whole seconds, so a token of the
// cutoff's own second counts as older. A session that starts after the cutoff, within that same
// second (a password changed at the sign-in's own step, then the session), has no older token: its
// tokens must pass, while the older sessions' tokens of that second still fail.

const secondOf = (d: Date) => Math.floor(d.getTime() / 1000);

describe.each(DB_KINDS)("a session started in the second of a cutoff on %s", (kind) => {
  let t: TTestDatabase;
  const sub = `cutoff-${kind}`;
  beforeAll(async () => {
    t = await installTestDatabase(kind);
    await importDocument({ users: [{ sub, attributes: {} }] }, {});
  });
  afterAll(async () => t?.close());

  it("keeps its tokens of that second, and the older sessions' tokens of that second cut off", async () => {
    const older = await startSession({ userId: sub, amr: ["pwd"] });
    // A cutoff half-way through a second, then a session 100 ms later, in the same second.
    const base = Math.floor(Date.now() / 1000) * 1000 + 2_000;
    const cutoff = new Date(base + 400);
    await invalidateUserTokens(sub, { at: cutoff });
    const started = await startSession({ userId: sub, amr: ["pwd", "otp"] }, new Date(base + 500));
    const iat = secondOf(cutoff);
    expect(await isCutOff(sub, started.session.id, iat)).toBe(false);
    expect(await isCutOff(sub, older.session.id, iat)).toBe(true);
    expect(await isCutOff(sub, undefined, iat)).toBe(true);
    expect(await isCutOff(sub, started.session.id, iat - 1)).toBe(true);
    expect(await t.db.prisma.tokenCutoff.findUnique({ where: { userId_sessionId: { userId: sub, sessionId: started.session.id } } })).toMatchObject({ notBefore: new Date(base) });
  });

  it("gives a session of a later second no cutoff of its own, and is ended by a later reset like any other", async () => {
    const base = Math.floor(Date.now() / 1000) * 1000 + 10_000;
    await invalidateUserTokens(sub, { at: new Date(base + 100) });
    const later = await startSession({ userId: sub, amr: ["pwd"] }, new Date(base + 1_200));
    expect(await t.db.prisma.tokenCutoff.count({ where: { userId: sub, sessionId: later.session.id } })).toBe(0);
    expect(await isCutOff(sub, later.session.id, secondOf(new Date(base + 1_200)))).toBe(false);
    // Sign out everywhere afterwards: its tokens go too.
    await invalidateUserTokens(sub, { at: new Date(base + 5_000) });
    expect(await isCutOff(sub, later.session.id, secondOf(new Date(base + 1_200)))).toBe(true);
  });
});
