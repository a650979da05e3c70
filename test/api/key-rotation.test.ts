import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPgDatabase, startServer } from "../../scripts/server-lib.mjs";
import { deriveKey, sealedPrefix, secretKeyId, unseal } from "../../server/crypto/sealing.ts";
import { SEALED_COLUMNS } from "../../server/key-rotation/sealed-columns.ts";
import { unique } from "../support/accounts.ts";
import { consoleSignIn, mintConsoleSession, trpcCall } from "../support/console.ts";
import { IMPORT_FIXTURE, fixtureClient } from "../support/fixtures.ts";
import { api, tokenRequest } from "../support/http.ts";
import { independentTotp } from "../support/independent-otp.ts";

/*
 * Key rotation as an operator runs it: the command line and the console's button, against running
 * servers. On PostgreSQL two instances share the database (every instance must follow a rotation
 * made anywhere); on the embedded database, one server and its data dir's key file.
 */

const postgres = inject("dbKind") === "postgres";
const KEY_A = "rotation-secret-key-a-0123456789abcdef";
const KEY_B = "rotation-secret-key-b-0123456789abcdef";
const ADMIN_PASSWORD = "rotation-admin-password";
// One public URL for every instance: tokens name it as their issuer, so any instance accepts any other's.
const PUBLIC_URL = "http://127.0.0.1:1";
const WITHIN_A_SECOND = { timeout: 1_000, interval: 50 };

type TServer = Awaited<ReturnType<typeof startServer>>;

const run = promisify(execFile);
/** `npm run idp -- <args>` with this environment; its standard output. */
async function idp(args: string[], env: Record<string, string>): Promise<string> {
  return (await run(process.execPath, ["scripts/idp.mjs", ...args], { env: { ...process.env, ...env } })).stdout;
}

/** A fresh client_credentials token from one server (never a cached one: its kid matters). */
async function freshToken(server: TServer, clientId = "otp-app", scope = "idp_api_sys_usec idp_api_sys_usec_chg idp_api_otp_full_access"): Promise<string> {
  const r = await tokenRequest({ grant_type: "client_credentials", scope }, { basic: [clientId, fixtureClient(clientId).secret], origin: server.baseUrl });
  if (r.status !== 200) throw new Error(`no token from ${server.baseUrl}: ${r.status} ${r.text}`);
  return r.body.access_token as string;
}

async function newAccount(server: TServer): Promise<string> {
  const sub = unique("rot-");
  const reg = await api("PUT", "/reg/api/v3/users", { token: await freshToken(server, "users-app", "idp_api_sys_users_reg"), origin: server.baseUrl, body: { user: { attrs: { sub, family_name: "Ключев" } } } });
  expect(reg.status).toBe(200);
  return sub;
}

/** An account with a bound generator, so that reading its generators answers 200 to a token that verifies. */
async function accountWithGenerator(server: TServer): Promise<string> {
  const sub = await newAccount(server);
  const bound = await api("POST", "/api/v3/users/totps/attach", { token: await freshToken(server), origin: server.baseUrl, body: { subjectId: sub, base32Secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", len: 6, algo: "SHA1", period: 30 } });
  expect(bound.status, bound.text).toBe(204);
  return sub;
}

const kidOf = (jwt: string): string => JSON.parse(Buffer.from(jwt.split(".")[0]!, "base64url").toString()).kid;
const kidOfNewToken = async (server: TServer) => kidOf(await freshToken(server));

async function jwksKids(server: TServer): Promise<string[]> {
  const r = await api("GET", "/.well-known/jwks.json", { origin: server.baseUrl });
  return (r.body.keys as { kid: string }[]).map((k) => k.kid).sort();
}

/** The status of a read with `token` at one server: 200 while the token verifies there. */
async function readStatus(server: TServer, token: string, sub: string): Promise<number> {
  return (await api("GET", `/api/v3/users/${sub}/totps`, { token, origin: server.baseUrl })).status;
}

/** Stage 1 of the QR binding: a pending TOTP secret, stored sealed until stage 2. */
async function pendingSecret(server: TServer, sub: string): Promise<string> {
  const r = await api("GET", `/api/v3/users/${sub}/totps/attach/qr`, { token: await freshToken(server), origin: server.baseUrl });
  expect(r.status).toBe(200);
  return r.body.base32Secret as string;
}

/** Stage 2: binds the pending secret, which the server must unseal to check the code. */
async function finishBinding(server: TServer, sub: string, base32Secret: string): Promise<number> {
  return (await api("POST", `/api/v3/users/${sub}/totps/attach/qr`, { token: await freshToken(server), origin: server.baseUrl, body: { base32Secret, otpCode: independentTotp(base32Secret) } })).status;
}

describe.runIf(postgres)("key rotation across two instances on PostgreSQL", () => {
  let db: Awaited<ReturnType<typeof createPgDatabase>>;
  let a: TServer;
  let b: TServer;
  const dataDirs: string[] = [];

  const env = (keys: { current: string; previous?: string }): Record<string, string> => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "idp-rotation-"));
    dataDirs.push(dataDir);
    return {
      DATABASE_URL: db.url,
      IDP_SECRET_KEY: keys.current,
      IDP_SECRET_KEY_PREVIOUS: keys.previous ?? "",
      IDP_PUBLIC_URL: PUBLIC_URL,
      IDP_ADMIN_PASSWORD: ADMIN_PASSWORD,
      IDP_IMPORT: IMPORT_FIXTURE,
      IDP_DATA_DIR: dataDir,
      IDP_KEY_PUBLISH_AHEAD: "5",
    };
  };

  async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** Every sealed cell of the database, opened with `secret` only: per column, the sorted plaintexts. */
  async function sealedPlaintexts(secret: string): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const c of SEALED_COLUMNS) {
      const rows = await query<{ v: string }>(`SELECT "${c.column}" AS v FROM "${c.table}" WHERE "${c.column}" IS NOT NULL`);
      out[`${c.table}.${c.column}`] = rows.map((r) => unseal([{ kid: secretKeyId(secret), key: deriveKey(secret, c.purpose) }], r.v)).sort();
    }
    return out;
  }

  async function adminCookie(secret: string): Promise<string> {
    const [admin] = await query<{ id: string }>("SELECT id FROM users WHERE login = 'admin'");
    return mintConsoleSession(secret, admin!.id);
  }

  beforeAll(async () => {
    db = await createPgDatabase(process.env.TEST_DATABASE_URL!);
    [a, b] = await Promise.all([startServer({ env: env({ current: KEY_A }) }), startServer({ env: env({ current: KEY_A }) })]);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.drop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it("rotate-signing-key: both instances publish the new key at once, sign with it only when it is due, and still verify the old key's tokens", async () => {
    const sub = await accountWithGenerator(a);
    const before = await freshToken(a);
    const oldKid = kidOf(before);

    const out = await idp(["rotate-signing-key", "--publish-ahead", "5"], { DATABASE_URL: db.url, IDP_SECRET_KEY: KEY_A });
    const newKid = /new signing key (\S+): published now/.exec(out)?.[1];
    expect(newKid).toBeDefined();
    expect(out).toContain(`retiring ${oldKid}`);

    // Published everywhere at once (the other instance through the change bus) …
    await expect.poll(() => jwksKids(b), WITHIN_A_SECOND).toEqual([oldKid, newKid].sort());
    expect(await jwksKids(a)).toEqual([oldKid, newKid].sort());
    // … but not signing yet: resource servers get the time to fetch it.
    expect(await kidOfNewToken(a)).toBe(oldKid);
    expect(await kidOfNewToken(b)).toBe(oldKid);

    // When it is due, both sign with it without being told again.
    await expect.poll(() => kidOfNewToken(a), { timeout: 10_000, interval: 250 }).toBe(newKid);
    expect(await kidOfNewToken(b)).toBe(newKid);
    // The old key still verifies what it signed, on both, and stays published for it.
    expect(await readStatus(a, before, sub)).toBe(200);
    expect(await readStatus(b, before, sub)).toBe(200);
    expect(await jwksKids(b)).toEqual([oldKid, newKid].sort());

    const [event] = await query<{ params: { kid: string; retired: string[]; by: string } }>("SELECT params FROM security_events WHERE type = 'keys.signing_key_rotated' ORDER BY id DESC LIMIT 1");
    expect(event!.params).toMatchObject({ kid: newKid, retired: [oldKid], by: "cli" });
  });

  it("the console's rotation of a compromised key: every instance refuses what it signed at once", async () => {
    const sub = await accountWithGenerator(a);
    const cookie = await adminCookie(KEY_A);
    const signedByOld = await freshToken(b);
    const oldKid = kidOf(signedByOld);
    // The key the first test retired still verifies its tokens: a compromise withdraws it too.
    expect((await jwksKids(a)).length).toBe(2);

    const rotated = await trpcCall(b.baseUrl, cookie, "console.signingKeys.rotate", { compromised: true }, "mutation");
    expect(rotated.status).toBe(200);
    const newKid = rotated.body.result!.data.kid as string;

    expect(await readStatus(b, signedByOld, sub)).toBe(401);
    await expect.poll(() => readStatus(a, signedByOld, sub), WITHIN_A_SECOND).toBe(401);
    expect(await jwksKids(a)).toEqual([newKid]);
    const fresh = await freshToken(a);
    expect(kidOf(fresh)).toBe(newKid);
    expect(await readStatus(b, fresh, sub)).toBe(200);

    // The page lists what each key does now, and nothing private.
    const list = await trpcCall(a.baseUrl, cookie, "console.signingKeys.list");
    const keys = list.body.result!.data.keys as { kid: string; state: string }[];
    expect(keys.find((k) => k.kid === newKid)?.state).toBe("signing");
    expect(keys.find((k) => k.kid === oldKid)?.state).toBe("withdrawn");
    expect(JSON.stringify(list.body)).not.toMatch(/private|"d":/);
    const [event] = await query<{ subject: string; params: { compromised: boolean; by: string } }>("SELECT subject, params FROM security_events WHERE type = 'keys.signing_key_rotated' ORDER BY id DESC LIMIT 1");
    const [admin] = await query<{ id: string }>("SELECT id FROM users WHERE login = 'admin'");
    expect(event).toMatchObject({ subject: admin!.id, params: { compromised: true, by: "console" } });
  });

  it("the console refuses a rotation to anyone but a signed-in administrator", async () => {
    const kids = await jwksKids(a);
    const anonymous = await trpcCall(a.baseUrl, "", "console.signingKeys.rotate", { compromised: true }, "mutation");
    expect(anonymous.status).toBe(401);
    expect(await jwksKids(a)).toEqual(kids);
  });

  it("rotate-secret-key: instances switch one at a time, the command re-seals everything, nothing sealed is lost", async () => {
    const sub = await accountWithGenerator(a);
    const binding = await newAccount(a);
    const pending = await pendingSecret(a, binding);
    const tokenBefore = await freshToken(a);
    const plaintexts = await sealedPlaintexts(KEY_A);
    // The import's provider secrets and devices, the signing keys and the pending secret are there to lose.
    for (const column of ["signing_keys.private_key_enc", "otp_pending_secrets.seed", "otp_devices.seed", "federation_providers.client_secret"]) {
      expect(plaintexts[column]!.length, column).toBeGreaterThan(0);
    }

    // Rolling: b first, with the new key current and the old one previous; a still on the old key.
    await b.stop();
    b = await startServer({ env: env({ current: KEY_B, previous: KEY_A }) });
    expect(await readStatus(b, tokenBefore, sub)).toBe(200);
    expect(await readStatus(b, await freshToken(b), sub)).toBe(200);
    // No signing-key rotation in the middle of it: the new key would be sealed under a secret key
    // the servers still on the old one cannot open, and none of them could sign once it is due.
    const kidsBefore = await jwksKids(a);
    const refused = await idp(["rotate-signing-key"], { DATABASE_URL: db.url, IDP_SECRET_KEY: KEY_B, IDP_SECRET_KEY_PREVIOUS: KEY_A }).then(
      (stdout) => `ran: ${stdout}`,
      (e: { stderr: string }) => e.stderr,
    );
    expect(refused).toContain("finish the secret-key rotation first");
    expect(await jwksKids(b)).toEqual(kidsBefore);
    await a.stop();
    a = await startServer({ env: env({ current: KEY_B, previous: KEY_A }) });

    const out = await idp(["rotate-secret-key"], { DATABASE_URL: db.url, IDP_SECRET_KEY: KEY_B, IDP_SECRET_KEY_PREVIOUS: KEY_A });
    expect(out).toMatch(/signing_keys\.private_key_enc: [1-9]\d* re-sealed, 0 changed meanwhile, 0 unreadable, 0 left under another key/);
    expect(out).toContain(`everything is sealed under ${secretKeyId(KEY_B)}; IDP_SECRET_KEY_PREVIOUS can be removed`);

    // Every cell is under the new key, and opens with it alone to exactly what it held before.
    for (const c of SEALED_COLUMNS) {
      const notUnderB = await query(`SELECT 1 FROM "${c.table}" WHERE "${c.column}" IS NOT NULL AND left("${c.column}", $2) <> $1`, [sealedPrefix(secretKeyId(KEY_B)), sealedPrefix(secretKeyId(KEY_B)).length]);
      expect(notUnderB, `${c.table}.${c.column}`).toEqual([]);
    }
    expect(await sealedPlaintexts(KEY_B)).toEqual(plaintexts);

    // The old key gone from every instance: everything still works.
    await Promise.all([a.stop(), b.stop()]);
    [a, b] = await Promise.all([startServer({ env: env({ current: KEY_B }) }), startServer({ env: env({ current: KEY_B }) })]);
    expect(await readStatus(a, tokenBefore, sub)).toBe(200);
    expect(await readStatus(b, await freshToken(a), sub)).toBe(200);
    expect(await finishBinding(b, binding, pending)).toBe(204);
    const [event] = await query<{ params: { keyId: string; remaining: number } }>("SELECT params FROM security_events WHERE type = 'keys.secret_key_rotated' ORDER BY id DESC LIMIT 1");
    expect(event!.params).toMatchObject({ keyId: secretKeyId(KEY_B), remaining: 0 });
    // Six production-server starts and two runs of the command: on a loaded two-core machine that
    // has taken more than the suite's 30 s.
  }, 120_000);
});

describe.runIf(!postgres)("key rotation on the embedded database", () => {
  let server: TServer;
  let dataDir: string;
  const env = () => ({ IDP_DATA_DIR: dataDir, IDP_ADMIN_PASSWORD: ADMIN_PASSWORD, IDP_IMPORT: IMPORT_FIXTURE, IDP_KEY_PUBLISH_AHEAD: "2" });
  const keyFile = () => readFileSync(path.join(dataDir, "secret.key"), "utf8");

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "idp-rotation-embedded-"));
    server = await startServer({ env: env() });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("rotates the signing key from the console while the server runs (the command line cannot open its database)", async () => {
    const sub = await accountWithGenerator(server);
    const before = await freshToken(server);
    const refused = await idp(["rotate-signing-key"], { IDP_DATA_DIR: dataDir }).then(
      (stdout) => `ran: ${stdout}`,
      (e: { stderr: string }) => e.stderr,
    );
    expect(refused).toMatch(/^idp: /);
    expect(await jwksKids(server)).toEqual([kidOf(before)]);

    const cookie = await consoleSignIn(server.baseUrl, "admin", ADMIN_PASSWORD);
    const rotated = await trpcCall(server.baseUrl, cookie, "console.signingKeys.rotate", {}, "mutation");
    expect(rotated.status).toBe(200);
    const newKid = rotated.body.result!.data.kid as string;
    expect(await jwksKids(server)).toEqual([kidOf(before), newKid].sort());
    expect(await kidOfNewToken(server)).toBe(kidOf(before));
    await expect.poll(() => kidOfNewToken(server), { timeout: 10_000, interval: 250 }).toBe(newKid);
    expect(await readStatus(server, before, sub)).toBe(200);
  });

  it("rotate-secret-key with the server stopped: a new key in the data dir, everything re-sealed, the old key dropped", async () => {
    const sub = await accountWithGenerator(server);
    const binding = await newAccount(server);
    const pending = await pendingSecret(server, binding);
    const tokenBefore = await freshToken(server);
    const oldKey = keyFile();
    await server.stop();

    const out = await idp(["rotate-secret-key"], { IDP_DATA_DIR: dataDir });
    expect(out).toMatch(/signing_keys\.private_key_enc: [1-9]\d* re-sealed, 0 changed meanwhile, 0 unreadable, 0 left under another key/);
    expect(out).toMatch(/otp_pending_secrets\.seed: [1-9]\d* re-sealed/);
    expect(out).toMatch(/otp_generators\.seed: [1-9]\d* re-sealed/);
    expect(out).toMatch(/new key \S+ in the data dir's secret.key; the old key is gone/);
    expect(keyFile()).not.toBe(oldKey);
    expect(keyFile().trim().split("\n")).toHaveLength(1);

    // The same port, so the same issuer: the token from before the rotation is still ours.
    server = await startServer({ env: env(), port: server.port });
    expect(await readStatus(server, tokenBefore, sub)).toBe(200);
    expect(await finishBinding(server, binding, pending)).toBe(204);
  });
});
