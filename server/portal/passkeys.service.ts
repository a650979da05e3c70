import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/server";
import type { TEventActor } from "../audit/audit.service.ts";
import { listNamedPasskeys, passkeyRegistrationOptions, passkeysOffered, registerPasskey, removeUserPasskey, renameUserPasskey, type TPasskeyView } from "../passkeys/passkeys.service.ts";
import { signInWithoutPassword } from "../passkeys/passwordless.service.ts";
import { findPasswordHash } from "../users/users.service.ts";
import { readOverview } from "./overview.service.ts";

// The person's own passkeys in the portal: adapters over the passkeys capability for `sub` only.

/**
 * Options for adding a passkey. The authenticator shows the account by its e-mail, phone or subject,
 * and by the person's name, so someone with several accounts tells them apart.
 */
export async function startOwnPasskey(sub: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const me = await readOverview(sub);
  const name = me.email?.value ?? me.phone?.value ?? me.sub;
  const displayName = [me.givenName, me.familyName].filter(Boolean).join(" ") || name;
  return passkeyRegistrationOptions({ id: sub, name, displayName });
}

export function finishOwnPasskey(sub: string, input: { answer: unknown; name: string }, actor: TEventActor): Promise<TPasskeyView> {
  return registerPasskey(sub, input.answer, input.name, actor);
}

export const listOwnPasskeys = (sub: string) => listNamedPasskeys(sub);
/** Whether the portal offers to add a passkey (the passkey policy may turn it off). */
export const ownPasskeysOffered = () => passkeysOffered();
export const renameOwnPasskey = (sub: string, id: string, name: string, actor: TEventActor) => renameUserPasskey(sub, id, name, actor);
/** The person's own removal keeps the session they are using (`sid`); every other one ends. */
export const removeOwnPasskey = (sub: string, id: string, actor: TEventActor, sid?: string) => removeUserPasskey(sub, id, actor, { keepSession: sid, by: "holder" });

/** Whether the person still has a password: the page offers to give it up, or says how to get one back. */
export async function ownPasswordState(sub: string): Promise<{ hasPassword: boolean }> {
  return { hasPassword: (await findPasswordHash(sub)) !== null };
}

/** "Sign in without a password from now on": the session in use stays (`sid`), every other one ends. */
export const dropOwnPassword = (sub: string, actor: TEventActor, sid?: string) => signInWithoutPassword(sub, actor, sid);
