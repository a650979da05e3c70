import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, type JWK } from "jose";
import { getConfig } from "../../config/config.ts";
import { keyFor } from "../../crypto/keys.ts";
import { seal, unseal } from "../../crypto/sealing.ts";
import { findActiveSigningKeys, findPublishedSigningKeys, insertSigningKey } from "./signing-keys.repository.ts";

// ES256: verified by every JOSE library resource servers are likely to use, and cheap to sign.
export const SIGNING_ALG = "ES256";

type TKeys = {
  signing: { kid: string; key: KeyObject };
  jwks: { keys: JWK[] };
  verify: Map<string, KeyObject>;
};

const KEY = Symbol.for("idp.signing-keys");
// The key set being loaded or loaded, and the same set once it is there, for synchronous lookups.
const LOADED = Symbol.for("idp.signing-keys.loaded");
const holder = globalThis as { [KEY]?: Promise<TKeys>; [LOADED]?: TKeys; lastKeyReload?: number };
// A token with an unknown kid may be forged; reloading for every one would let anyone drive queries.
const RELOAD_INTERVAL_MS = 10_000;

function forgetKeys(): void {
  holder[KEY] = undefined;
  holder[LOADED] = undefined;
}

/** Creates the first signing key if there is none (at start, before serving). */
export async function ensureSigningKey(): Promise<void> {
  if ((await findActiveSigningKeys()).length > 0) return;
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), alg: SIGNING_ALG, use: "sig" };
  const kid = await calculateJwkThumbprint(publicJwk);
  await insertSigningKey({
    kid,
    alg: SIGNING_ALG,
    publicJwk: { ...publicJwk, kid },
    privateKeyEnc: seal(keyFor("signing-keys"), await exportPKCS8(privateKey)),
  });
  forgetKeys();
}

async function loadKeys(): Promise<TKeys> {
  const active = await findActiveSigningKeys();
  const current = active[0];
  if (!current) throw new Error("no signing key; the server did not finish starting");
  // Retired keys stay published for one token lifetime so tokens they signed still verify.
  const since = new Date(Date.now() - getConfig().accessTokenTtl * 1000);
  const published = await findPublishedSigningKeys(since);
  const verify = new Map(published.map((k) => [k.kid, createPublicKey({ key: k.publicJwk as import("node:crypto").JsonWebKey, format: "jwk" })]));
  return {
    signing: { kid: current.kid, key: createPrivateKey(unseal(keyFor("signing-keys"), current.privateKeyEnc)) },
    jwks: { keys: published.map((k) => k.publicJwk as JWK) },
    verify,
  };
}

function keys(): Promise<TKeys> {
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

/**
 * True when the loaded key set holds `kid`: the bearer path's check, without a Promise. False says
 * nothing (not loaded yet, or a key another instance just made): ask getVerificationKey().
 */
export function hasLoadedVerificationKey(kid: string): boolean {
  return holder[LOADED]?.verify.has(kid) === true;
}

export async function getSigningKey() {
  return (await keys()).signing;
}

export async function getJwks() {
  return (await keys()).jwks;
}

/** The public key for a kid; an unknown kid reloads once, in case another instance rotated. */
export async function getVerificationKey(kid: string) {
  let found = (await keys()).verify.get(kid);
  if (!found && Date.now() - (holder.lastKeyReload ?? 0) > RELOAD_INTERVAL_MS) {
    holder.lastKeyReload = Date.now();
    forgetKeys();
    found = (await keys()).verify.get(kid);
  }
  return found;
}
