import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, type JWK } from "jose";
import { recordEvent, type TEventActor } from "../../audit/audit.service.ts";
import { onChange, publishChange } from "../../cache/change-bus.ts";
import type { TMaybePromise } from "../../cache/maybe-promise.ts";
import { getConfig } from "../../config/config.ts";
import { opensWithCurrentKey, sealFor, unsealFor } from "../../crypto/keys.ts";
import { AppError } from "../../errors/app-error.ts";
import { describeError, log } from "../../log/logger.ts";
import { keySchedule, keyState, LONGEST_SIGNED_TOKEN_S, type TKeyState } from "./key-schedule.ts";
import { findLiveSigningKeys, hasUnretiredSigningKey, insertSigningKey, insertSuccessorKey, listSigningKeys } from "./signing-keys.repository.ts";

// ES256: verified by every JOSE library resource servers are likely to use, and cheap to sign.
export const SIGNING_ALG = "ES256";


type TKeys = {
  signing: { kid: string; key: KeyObject | undefined };
  jwks: { keys: JWK[] };
  verify: Map<string, KeyObject>;
  /** When the schedule's answer changes (a key starts signing or leaves the JWKS): reload then. */
  changesAt: number;
};

const KEY = Symbol.for("idp.signing-keys");
// The key set being loaded or loaded, and the same set once it is there, for synchronous lookups.
const LOADED = Symbol.for("idp.signing-keys.loaded");
const holder = globalThis as { [KEY]?: Promise<TKeys>; [LOADED]?: TKeys; lastKeyReload?: number; signingKeysWatched?: boolean };
// A token with an unknown kid may be forged; reloading for every one would let anyone drive queries.
const RELOAD_INTERVAL_MS = 10_000;
/** A rotation anywhere reaches every instance's key set through this topic. */
const SIGNING_KEYS_TOPIC = "signing-keys";

function forgetKeys(): void {
  holder[KEY] = undefined;
  holder[LOADED] = undefined;
}

async function newKeyRow() {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), alg: SIGNING_ALG, use: "sig" };
  const kid = await calculateJwkThumbprint(publicJwk);
  return { kid, alg: SIGNING_ALG, publicJwk: { ...publicJwk, kid }, privateKeyEnc: sealFor("signing-keys", await exportPKCS8(privateKey)) };
}

/** Creates the first signing key if there is none (at start, before serving). */
export async function ensureSigningKey(): Promise<void> {
  if (await hasUnretiredSigningKey()) return;
  await insertSigningKey(await newKeyRow());
  forgetKeys();
}

export type TRotation = { kid: string; signsFrom: Date; retired: string[] };

/**
 * Puts a new signing key in: published at once, signing `publishAheadS` (IDP_KEY_PUBLISH_AHEAD)
 * seconds later, when the keys in force retire (they stay published until every token they signed
 * has expired). `compromised`: the new key signs at once and every other key leaves the JWKS at once
 * (the signing one, and the retired ones still verifying), so every token they signed is refused.
 */
export async function rotateSigningKey(opts: { publishAheadS?: number; compromised?: boolean }, actor: TEventActor & { by: string }): Promise<TRotation> {
  const live = await findLiveSigningKeys(new Date(Date.now() - LONGEST_SIGNED_TOKEN_S * 1000));
  // A process sealing under another secret key than the key in force (a secret key being rolled
  // out) would store a key the servers cannot open: none of them could sign once it is due.
  if (live.length && !opensWithCurrentKey("signing-keys", keySchedule(live, Date.now()).signing.privateKeyEnc)) throw new AppError("keys.secret_key_mismatch");
  // With no key in force (a database no server has started on), the first key signs at once.
  const aheadMs = live.length ? (opts.publishAheadS ?? getConfig().keyPublishAhead) * 1000 : 0;
  const row = await newKeyRow();
  const { signsFrom, retired } = await insertSuccessorKey(row, { aheadMs, compromised: opts.compromised === true });
  forgetKeys();
  await publishChange(SIGNING_KEYS_TOPIC);
  const { by, ...who } = actor;
  await recordEvent("keys.signing_key_rotated", who, { kid: row.kid, signsFrom: signsFrom.toISOString(), retired, compromised: opts.compromised === true, by });
  return { kid: row.kid, signsFrom, retired };
}

export type TSigningKeyView = { kid: string; alg: string; signsFrom: Date; retiredAt: Date | null; createdAt: Date; state: TKeyState };

/** Every key with what it does now, for the console (no private part, sealed or not), and the rotation's delay. */
export async function describeSigningKeys(): Promise<{ keys: TSigningKeyView[]; publishAheadS: number }> {
  const rows = await listSigningKeys();
  const now = Date.now();
  const schedule = keySchedule(rows, now);
  const keys = rows.map((k): TSigningKeyView => ({ kid: k.kid, alg: k.alg, signsFrom: k.signsFrom, retiredAt: k.retiredAt, createdAt: k.createdAt, state: keyState(k, schedule, now) }));
  return { keys, publishAheadS: getConfig().keyPublishAhead };
}

async function loadKeys(): Promise<TKeys> {
  watchRotations();
  const now = Date.now();
  const { signing, published, changesAt } = keySchedule(await findLiveSigningKeys(new Date(now - LONGEST_SIGNED_TOKEN_S * 1000)), now);
  const verify = new Map(published.map((k) => [k.kid, createPublicKey({ key: k.publicJwk as import("node:crypto").JsonWebKey, format: "jwk" })]));
  return {
    signing: { kid: signing.kid, key: openSigningKey(signing.kid, signing.privateKeyEnc) },
    jwks: { keys: published.map((k) => k.publicJwk as JWK) },
    verify,
    changesAt: changesAt ?? Infinity,
  };
}

/**
 * The private key in force, or undefined when this process's secret keys do not open it (a key
 * rotated in by a process with another IDP_SECRET_KEY): then signing fails, loudly, while
 * verification, which needs only the public keys, goes on.
 */
function openSigningKey(kid: string, sealed: string): KeyObject | undefined {
  try {
    return createPrivateKey(unsealFor("signing-keys", sealed));
  } catch (e) {
    log.error("the signing key in force cannot be opened with this server's secret keys; tokens cannot be issued", { kid, ...describeError(e) });
    return undefined;
  }
}

function watchRotations(): void {
  if (holder.signingKeysWatched) return;
  holder.signingKeysWatched = true;
  onChange(SIGNING_KEYS_TOPIC, () => forgetKeys());
}

function keys(): Promise<TKeys> {
  // The schedule moved on (a rotated-in key starts signing, a retired one leaves the JWKS).
  if ((holder[LOADED]?.changesAt ?? Infinity) <= Date.now()) forgetKeys();
  let pending = holder[KEY];
  if (!pending) {
    const loading = (pending = holder[KEY] = loadKeys());
    loading.then(
      (loaded) => void (holder[KEY] === loading && (holder[LOADED] = loaded)),
      () => void (holder[KEY] === loading && forgetKeys()),
    );
  }
  return pending;
}

export async function getSigningKey(): Promise<{ kid: string; key: KeyObject }> {
  const { kid, key } = (await keys()).signing;
  if (!key) throw new Error(`the signing key ${kid} cannot be opened with this server's secret keys (see docs/key-rotation.md)`);
  return { kid, key };
}

export async function getJwks() {
  return (await keys()).jwks;
}

/**
 * The public key for a kid: without a Promise when the loaded key set is current and holds it (the
 * bearer path's case); an unknown kid reloads once, in case another instance rotated.
 */
export function getVerificationKey(kid: string): TMaybePromise<KeyObject | undefined> {
  const loaded = holder[LOADED];
  if (loaded !== undefined && loaded.changesAt > Date.now() && loaded.verify.has(kid)) return loaded.verify.get(kid);
  return loadVerificationKey(kid);
}

async function loadVerificationKey(kid: string): Promise<KeyObject | undefined> {
  let found = (await keys()).verify.get(kid);
  if (!found && Date.now() - (holder.lastKeyReload ?? 0) > RELOAD_INTERVAL_MS) {
    holder.lastKeyReload = Date.now();
    forgetKeys();
    found = (await keys()).verify.get(kid);
  }
  return found;
}
