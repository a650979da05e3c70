import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";

// A WebAuthn authenticator made from Node's crypto: an ES256 (P-256) key pair and real CBOR
// structures, so the service's verification (the @simplewebauthn/server library) reads exactly what
// a browser would send. Each answer can be bent the ways an attacker or a broken device would.

const FLAG = { up: 0x01, uv: 0x04, be: 0x08, bs: 0x10, at: 0x40 };
const b64url = (bytes: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(bytes));
const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash("sha256").update(data).digest());

export type TBend = { origin?: string; rpId?: string; uv?: boolean; type?: string; challenge?: string; counter?: number; attachment?: "platform" | "cross-platform" | null };

/** A "packed" attestation: the leaf certificate (with its chain, root excluded) and its private key. */
export type TAttestation = { x5c: Uint8Array[]; key: KeyObject };

export class SoftAuthenticator {
  readonly credentialId = new Uint8Array(randomBytes(16));
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  counter = 0;

  constructor(
    readonly origin: string,
    readonly rpId: string,
    /** Whether the authenticator counts its signatures (a synced passkey usually does not). */
    readonly counts = true,
    readonly aaguid = new Uint8Array(16),
    /** With one, registration answers carry a "packed" attestation signed by it; without, attestation "none". */
    readonly attestation?: TAttestation,
  ) {
    const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private cosePublicKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: "jwk" });
    return isoCBOR.encode(new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, isoBase64URL.toBuffer(jwk.x!)], [-3, isoBase64URL.toBuffer(jwk.y!)]]));
  }

  private authData(rpId: string, uv: boolean, counter: number, attested: boolean): Uint8Array {
    const flags = FLAG.up | (uv ? FLAG.uv : 0) | (attested ? FLAG.at : 0);
    const head = Buffer.alloc(37);
    Buffer.from(sha256(rpId)).copy(head, 0);
    head[32] = flags;
    head.writeUInt32BE(counter, 33);
    if (!attested) return new Uint8Array(head);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    return new Uint8Array(Buffer.concat([head, this.aaguid, idLength, this.credentialId, this.cosePublicKey()]));
  }

  private clientData(type: string, challenge: string, origin: string): string {
    return JSON.stringify({ type, challenge, origin, crossOrigin: false });
  }

  private attestationStatement(authData: Uint8Array, clientDataJSON: string): [string, Map<string, unknown>] {
    if (!this.attestation) return ["none", new Map()];
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), this.attestation.key);
    return ["packed", new Map<string, unknown>([["alg", -7], ["sig", new Uint8Array(signature)], ["x5c", this.attestation.x5c]])];
  }

  /** The answer to navigator.credentials.create() with these options (attestation "packed" when the authenticator has a certificate, else "none"). */
  register(options: { challenge: string }, bend: TBend = {}) {
    const clientDataJSON = this.clientData(bend.type ?? "webauthn.create", bend.challenge ?? options.challenge, bend.origin ?? this.origin);
    const authData = this.authData(bend.rpId ?? this.rpId, bend.uv ?? true, 0, true);
    const [fmt, attStmt] = this.attestationStatement(authData, clientDataJSON);
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([["fmt", fmt], ["attStmt", attStmt], ["authData", authData]]) as never);
    const attachment = bend.attachment === undefined ? "platform" : bend.attachment;
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      response: { clientDataJSON: b64url(new TextEncoder().encode(clientDataJSON)), attestationObject: b64url(attestationObject), transports: ["internal"] },
      clientExtensionResults: {},
      ...(attachment === null ? {} : { authenticatorAttachment: attachment }),
    };
  }

  /** The answer to navigator.credentials.get() with these options: a signature over authData and the client data's hash. */
  authenticate(options: { challenge: string }, bend: TBend = {}) {
    if (this.counts) this.counter += 1;
    const clientDataJSON = new TextEncoder().encode(this.clientData(bend.type ?? "webauthn.get", bend.challenge ?? options.challenge, bend.origin ?? this.origin));
    const authData = this.authData(bend.rpId ?? this.rpId, bend.uv ?? true, bend.counter ?? this.counter, false);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(new Uint8Array(signature)) },
      clientExtensionResults: {},
      authenticatorAttachment: "platform" as const,
    };
  }
}
