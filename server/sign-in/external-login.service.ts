import { recordEvent, type TEventActor } from "../audit/audit.service.ts";
import { getConfig } from "../config/config.ts";
import { sealFor, unsealFor } from "../crypto/keys.ts";
import { AppError } from "../errors/app-error.ts";
import { rememberExternalTokens, type TExternalIdentity } from "../federation/external-auth/index.ts";
import { findBoundUser } from "../federation/bindings.service.ts";
import { bindExternalAccount } from "../federation/bindings.service.ts";
import { ZFpType, type TProviderKey } from "../federation/federation.schemas.ts";
import { findProvider, findProviders } from "../federation/providers.service.ts";
import { providerLabel } from "../federation/providers.service.ts";
import { cachedOfferedProviders, type TOfferedProvider } from "../federation/offered-providers-cache.ts";
import { accountSnapshot } from "../users/account-snapshots.ts";
import { findExternalIdentity, forgetExternalIdentity, setExternalIdentity } from "./login-flows.repository.ts";
import type { TFlow } from "./login-flows.service.ts";
import { signUpValuesFromClaims } from "./signup-form.ts";

// Sign-in with an external account: who it belongs to, and the account that comes back bound to
// nobody, held (sealed: it carries the provider's tokens) on the login flow until its person links it
// by signing in with a password (bound once the whole sign-in completes), or creates an account with it.

/** The providers the sign-in page offers, in a stable order. */
export async function offeredProviders(): Promise<TOfferedProvider[]> {
  return cachedOfferedProviders(async () =>
    (await findProviders()).filter((p) => p.offeredAtSignIn).map((p) => ({ fpType: ZFpType.parse(p.fpType), fpName: p.fpName, label: providerLabel(p) })),
  );
}

/** The provider a sign-in form names ("oidc:ext"), when the page offers it; else 404 provider_not_found. */
export async function offeredProvider(fp: string | undefined): Promise<TProviderKey> {
  const found = (await offeredProviders()).find((p) => p.label === fp);
  if (!found) throw new AppError("federation.provider_not_found", { params: { fp: fp ?? "" } });
  return { fpType: found.fpType, fpName: found.fpName };
}

export type TExternalOwner = { kind: "bound"; userId: string } | { kind: "locked"; userId: string } | { kind: "unbound" };

/** Whose the external account is; a locked owner and an unbound account are failed sign-ins. */
export async function ownerOfExternalAccount(identity: TExternalIdentity, actor: TEventActor): Promise<TExternalOwner> {
  const provider = providerLabel(identity.provider);
  const userId = await findBoundUser({ ...identity.provider, sid: identity.sid });
  if (!userId) {
    await recordEvent("user.sign_in_failed", actor, { reason: "fa_unbound", method: "fed", provider, sid: identity.sid });
    return { kind: "unbound" };
  }
  const account = (await accountSnapshot(userId))?.account;
  if (!account || account.locked) {
    await recordEvent("user.sign_in_failed", { ...actor, subject: userId }, { reason: "account_locked", method: "fed", provider });
    return { kind: "locked", userId };
  }
  return { kind: "bound", userId };
}

// The tokens' expiry travels as text inside the sealed JSON. `linkTo` is the account whose password
// the link page accepted: the binding waits for that sign-in to complete (see linkOnSignIn).
type THeld = { identity: TExternalIdentity; linkTo?: string };

const sealHeld = (identity: TExternalIdentity, linkTo?: string) => sealFor("federation-tokens", JSON.stringify({ ...identity, linkTo }));

function unsealHeld(sealed: string): THeld {
  const { linkTo, ...parsed } = JSON.parse(unsealFor("federation-tokens", sealed)) as TExternalIdentity & { tokens: { expiresAt?: string }; linkTo?: string };
  return { identity: { ...parsed, tokens: { ...parsed.tokens, expiresAt: parsed.tokens.expiresAt ? new Date(parsed.tokens.expiresAt) : undefined } }, linkTo };
}

/** Keeps the unbound external account on the flow until it is linked or registered. */
export async function holdExternalIdentity(flowId: string, identity: TExternalIdentity): Promise<void> {
  if (!(await setExternalIdentity(flowId, sealHeld(identity)))) throw new AppError("login.flow_not_found");
}

/** The external account a flow held when it was read, or undefined. */
export function heldExternalIdentity(flow: Pick<TFlow, "externalIdentity">): TExternalIdentity | undefined {
  return flow.externalIdentity ? unsealHeld(flow.externalIdentity).identity : undefined;
}

/** The external account the flow `flowId` holds now (a sign-up names the flow it started from), or undefined. */
async function heldExternalIdentityOf(flowId: string): Promise<TExternalIdentity | undefined> {
  return heldExternalIdentity({ externalIdentity: await findExternalIdentity(flowId) });
}

/** Whether a held account may create an account of its own here: the provider allows it and sign-up is on. */
export async function registrationAllowed(identity: TExternalIdentity): Promise<boolean> {
  if (!getConfig().selfSignUp) return false;
  return (await findProvider(identity.provider))?.allowRegistration ?? false;
}

/**
 * Binds the flow's held external account to `userId`, who just proved themselves (a completed sign-in,
 * or a finished registration), and stores its tokens when the provider remembers them. 409 sid_bound
 * when someone else bound it meanwhile.
 */
export async function linkHeldIdentity(flowId: string, identity: TExternalIdentity, userId: string, actor: TEventActor, via: "sign_in" | "registration"): Promise<void> {
  await bindExternalAccount(userId, { ...identity.provider, sid: identity.sid }, identity.userName, actor, { via });
  await rememberExternalTokens(userId, identity);
  await forgetExternalIdentity(flowId);
}

/**
 * The link page accepted the password of `userId`: the held account is marked for that account but
 * not bound yet. A password alone must not add a lasting way in while the account still asks for a
 * second factor (or a new password): whoever knows only the password and abandons the next step
 * binds nothing.
 */
export async function linkWhenSignedIn(flowId: string, identity: TExternalIdentity, userId: string): Promise<void> {
  if (!(await setExternalIdentity(flowId, sealHeld(identity, userId)))) throw new AppError("login.flow_not_found");
}

/**
 * The flow's sign-in of `userId` completed (every step passed): the account marked for it on the link
 * page is bound now. One held but never linked goes with the flow's end (it carries the provider's tokens).
 */
export async function linkOnSignIn(flow: Pick<TFlow, "id" | "externalIdentity">, userId: string, actor: TEventActor): Promise<void> {
  // A flow that held nothing when this request read it has nothing to bind (nearly every sign-in):
  // no query. One that did is read again, as the link page marked it during this request.
  const sealed = flow.externalIdentity && (await findExternalIdentity(flow.id));
  if (!sealed) return;
  const { identity, linkTo } = unsealHeld(sealed);
  if (linkTo === userId) await linkHeldIdentity(flow.id, identity, userId, { ...actor, subject: userId }, "sign_in");
  else await forgetExternalIdentity(flow.id);
}

/**
 * A sign-up started from a flow that holds an external account whose provider allows registration:
 * the form's values its claims give, and the words that say what it will link.
 */
export async function externalSignUp(loginFlowId: string, fields: string[]): Promise<{ values: Record<string, string>; notice: Record<string, string> } | undefined> {
  const identity = await heldExternalIdentityOf(loginFlowId);
  if (!identity || !(await registrationAllowed(identity))) return undefined;
  return { values: signUpValuesFromClaims(identity.claims, fields), notice: { provider: identity.provider.fpName, name: identity.userName ?? identity.sid } };
}

/**
 * A finished sign-up from such a flow: the new account gets the external account. Bound to someone
 * else meanwhile (a race), the account still exists and says so in an event; it is not undone.
 */
export async function linkAfterSignUp(loginFlowId: string | null, userId: string, actor: TEventActor): Promise<void> {
  const identity = loginFlowId ? await heldExternalIdentityOf(loginFlowId) : undefined;
  if (!loginFlowId || !identity || !(await registrationAllowed(identity))) return;
  try {
    await linkHeldIdentity(loginFlowId, identity, userId, { ...actor, subject: userId }, "registration");
  } catch (e) {
    if (!(e instanceof AppError) || e.code !== "federation.sid_bound") throw e;
    await recordEvent("user.fa_bind_failed", { ...actor, subject: userId }, { via: "registration", reason: "fa_bound_to_other_user", provider: providerLabel(identity.provider), sid: identity.sid });
  }
}
