/* global TextEncoder */
// Plain JavaScript: the API and database tests use it from TypeScript (soft-authenticator.d.mts
// beside it), and the benchmark's passkey sign-ins (bench/passkey-sign-in.mjs) from plain Node.
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";

// A WebAuthn authenticator made from Node's crypto: an ES256 (P-256) key pair and real CBOR
// structures, so the service's verification (the @simplewebauthn/server library) reads exactly what
// a browser would send. Each answer can be bent the ways an attacker or a broken device would.

const FLAG = { up: 0x01, uv: 0x04, be: 0x08, bs: 0x10, at: 0x40 };
/** @param {Uint8Array} bytes */
const b64url = (bytes) => isoBase64URL.fromBuffer(new Uint8Array(bytes));
/** @param {Uint8Array | string} data */
const sha256 = (data) => new Uint8Array(createHash("sha256").update(data).digest());

/** @typedef {{ origin?: string, rpId?: string, uv?: boolean, type?: string, challenge?: string, counter?: number, attachment?: "platform" | "cross-platform" | null }} TBend */
/** @typedef {{ x5c: Uint8Array[], key: import("node:crypto").KeyObject }} TAttestation  a "packed" attestation: the leaf certificate (with its chain, root excluded) and its private key */

export class SoftAuthenticator {
  credentialId = new Uint8Array(randomBytes(16));
  #privateKey;
  #publicKey;
  counter = 0;

  /**
   * @param {string} origin
   * @param {string} rpId
   * @param {boolean} counts whether the authenticator counts its signatures (a synced passkey usually does not)
   * @param {Uint8Array} aaguid
   * @param {TAttestation} [attestation] with one, registration answers carry a "packed" attestation signed by it; without, attestation "none"
   */
  constructor(origin, rpId, counts = true, aaguid = new Uint8Array(16), attestation = undefined) {
    this.origin = origin;
    this.rpId = rpId;
    this.counts = counts;
    this.aaguid = aaguid;
    this.attestation = attestation;
    const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.#privateKey = pair.privateKey;
    this.#publicKey = pair.publicKey;
  }

  get id() {
    return b64url(this.credentialId);
  }

  #cosePublicKey() {
    const jwk = this.#publicKey.export({ format: "jwk" });
    return isoCBOR.encode(new Map([[1, 2], [3, -7], [-1, 1], [-2, isoBase64URL.toBuffer(jwk.x)], [-3, isoBase64URL.toBuffer(jwk.y)]]));
  }

  /** @param {string} rpId @param {boolean} uv @param {number} counter @param {boolean} attested */
  #authData(rpId, uv, counter, attested) {
    const flags = FLAG.up | (uv ? FLAG.uv : 0) | (attested ? FLAG.at : 0);
    const head = Buffer.alloc(37);
    Buffer.from(sha256(rpId)).copy(head, 0);
    head[32] = flags;
    head.writeUInt32BE(counter, 33);
    if (!attested) return new Uint8Array(head);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    return new Uint8Array(Buffer.concat([head, this.aaguid, idLength, this.credentialId, this.#cosePublicKey()]));
  }

  /** @param {string} type @param {string} challenge @param {string} origin */
  #clientData(type, challenge, origin) {
    return JSON.stringify({ type, challenge, origin, crossOrigin: false });
  }

  /** @param {Uint8Array} authData @param {string} clientDataJSON @returns {[string, Map<string, unknown>]} */
  #attestationStatement(authData, clientDataJSON) {
    if (!this.attestation) return ["none", new Map()];
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), this.attestation.key);
    return ["packed", new Map([["alg", -7], ["sig", new Uint8Array(signature)], ["x5c", this.attestation.x5c]])];
  }

  /**
   * The answer to navigator.credentials.create() with these options (attestation "packed" when the authenticator has a certificate, else "none").
   * @param {{ challenge: string }} options
   * @param {TBend} bend
   */
  register(options, bend = {}) {
    const clientDataJSON = this.#clientData(bend.type ?? "webauthn.create", bend.challenge ?? options.challenge, bend.origin ?? this.origin);
    const authData = this.#authData(bend.rpId ?? this.rpId, bend.uv ?? true, 0, true);
    const [fmt, attStmt] = this.#attestationStatement(authData, clientDataJSON);
    const attestationObject = isoCBOR.encode(new Map([["fmt", fmt], ["attStmt", attStmt], ["authData", authData]]));
    const attachment = bend.attachment === undefined ? "platform" : bend.attachment;
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: { clientDataJSON: b64url(new TextEncoder().encode(clientDataJSON)), attestationObject: b64url(attestationObject), transports: ["internal"] },
      clientExtensionResults: {},
      ...(attachment === null ? {} : { authenticatorAttachment: attachment }),
    };
  }

  /**
   * The answer to navigator.credentials.get() with these options: a signature over authData and the client data's hash.
   * @param {{ challenge: string }} options
   * @param {TBend} bend
   */
  authenticate(options, bend = {}) {
    if (this.counts) this.counter += 1;
    const clientDataJSON = new TextEncoder().encode(this.#clientData(bend.type ?? "webauthn.get", bend.challenge ?? options.challenge, bend.origin ?? this.origin));
    const authData = this.#authData(bend.rpId ?? this.rpId, bend.uv ?? true, bend.counter ?? this.counter, false);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), this.#privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(new Uint8Array(signature)) },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }
}
