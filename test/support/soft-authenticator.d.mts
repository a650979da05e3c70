/** Ways to bend an answer, as an attacker or a broken device would. */
export type TBend = { origin?: string; rpId?: string; uv?: boolean; type?: string; challenge?: string; counter?: number };

type TClientExtras = { clientExtensionResults: Record<string, never>; authenticatorAttachment: "platform" };

export class SoftAuthenticator {
  readonly credentialId: Uint8Array;
  readonly origin: string;
  readonly rpId: string;
  /** Whether the authenticator counts its signatures (a synced passkey usually does not). */
  readonly counts: boolean;
  readonly aaguid: Uint8Array;
  counter: number;
  constructor(origin: string, rpId: string, counts?: boolean, aaguid?: Uint8Array);
  get id(): string;
  register(
    options: { challenge: string },
    bend?: TBend,
  ): { id: string; rawId: string; type: "public-key"; response: { clientDataJSON: string; attestationObject: string; transports: string[] } } & TClientExtras;
  authenticate(
    options: { challenge: string },
    bend?: TBend,
  ): { id: string; rawId: string; type: "public-key"; response: { clientDataJSON: string; authenticatorData: string; signature: string } } & TClientExtras;
}
