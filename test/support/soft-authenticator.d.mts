/** Ways to bend an answer, as an attacker or a broken device would. */
export type TBend = { origin?: string; rpId?: string; uv?: boolean; type?: string; challenge?: string; counter?: number; attachment?: "platform" | "cross-platform" | null };

/** A "packed" attestation: the leaf certificate (with its chain, root excluded) and its private key. */
export type TAttestation = { x5c: Uint8Array[]; key: import("node:crypto").KeyObject };

type TClientExtras = { clientExtensionResults: Record<string, never>; authenticatorAttachment: "platform" };
type TRegisterExtras = { clientExtensionResults: Record<string, never>; authenticatorAttachment?: "platform" | "cross-platform" };

export class SoftAuthenticator {
  readonly credentialId: Uint8Array;
  readonly origin: string;
  readonly rpId: string;
  /** Whether the authenticator counts its signatures (a synced passkey usually does not). */
  readonly counts: boolean;
  readonly aaguid: Uint8Array;
  readonly attestation?: TAttestation;
  counter: number;
  constructor(origin: string, rpId: string, counts?: boolean, aaguid?: Uint8Array, attestation?: TAttestation);
  get id(): string;
  register(
    options: { challenge: string },
    bend?: TBend,
  ): { id: string; rawId: string; type: "public-key"; response: { clientDataJSON: string; attestationObject: string; transports: string[] } } & TRegisterExtras;
  authenticate(
    options: { challenge: string },
    bend?: TBend,
  ): { id: string; rawId: string; type: "public-key"; response: { clientDataJSON: string; authenticatorData: string; signature: string } } & TClientExtras;
}
