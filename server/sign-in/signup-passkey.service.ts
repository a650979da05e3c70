import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/server";
import type { TEventActor } from "../audit/audit.service.ts";
import { AppError } from "../errors/app-error.ts";
import { getConfig } from "../config/config.ts";
import { passkeyRegistrationOptions, passkeysOffered, passkeyUserOf, registerPasskey } from "../passkeys/passkeys.service.ts";
import { findActiveAccount } from "../users/account-snapshots.ts";
import { awaitPasskey, claimPasskeyStep, releasePasskeyStep, type TSignUpFlowRow } from "./signup-flows.repository.ts";

/*
 * A sign-up with a passkey instead of a password: the form registers the account without a
 * password, the codes create it as usual, and the flow then waits for its passkey in the browser
 * that signed up. The registration challenge is bound to the sign-up (`signup:` and its id), so only
 * this browser's answer registers, and user verification is required whatever the policy says (the
 * passkey is the account's only way in, and signs in as two factors). The step is taken for one
 * answer at a time, so parallel answers register one passkey. The person is signed in once the
 * passkey exists. Abandoned at that step, the account has no way in until "Forgot password?" sets a
 * password (its contacts are confirmed): the form offers a passkey only where recovery is on.
 */

/**
 * Whether the sign-up form offers a passkey instead of a password: where passkeys are offered, and
 * "Forgot password?" is on, so an account left at the passkey step still has a way in.
 */
export async function passkeySignUpOffered(): Promise<boolean> {
  const { recovery } = getConfig();
  return (recovery.email || recovery.phone) && (await passkeysOffered());
}

const bindingOf = (flow: Pick<TSignUpFlowRow, "id">) => `signup:${flow.id}`;

/** The codes created the account: the flow waits for its passkey now. Of two submissions of the last code, one goes on. */
export async function waitForPasskey(flow: TSignUpFlowRow, userId: string): Promise<void> {
  if (!(await awaitPasskey(flow.id, userId))) throw new AppError("signup.flow_not_found");
}

/** The account a sign-up at its passkey step created. */
async function accountOf(flow: TSignUpFlowRow) {
  const account = flow.step === "passkey" && flow.userId ? await findActiveAccount(flow.userId) : null;
  if (!account) throw new AppError("signup.flow_not_found");
  return account;
}

/** Options for navigator.credentials.create(), for the new account, bound to this sign-up. */
export async function signUpPasskeyOptions(flow: TSignUpFlowRow): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return passkeyRegistrationOptions(passkeyUserOf(await accountOf(flow)), { binding: bindingOf(flow), requireUserVerification: true });
}

/**
 * Registers the device's answer as the new account's passkey; its account id, or a refusal (the
 * answer failed a check, or was malformed) the page shows with the button again.
 */
export async function registerSignUpPasskey(flow: TSignUpFlowRow, answer: unknown, name: string, actor: TEventActor): Promise<{ ok: true; userId: string } | { ok: false }> {
  const account = await accountOf(flow);
  if (!(await claimPasskeyStep(flow.id))) throw new AppError("signup.flow_not_found");
  try {
    await registerPasskey(account.id, answer, name, actor, { binding: bindingOf(flow), requireUserVerification: true });
  } catch (e) {
    // Only a refusal gives the step back: after any other failure the passkey may be stored already.
    if (!(e instanceof AppError || (e instanceof Error && e.name === "ZodError"))) throw e;
    await releasePasskeyStep(flow.id);
    return { ok: false };
  }
  return { ok: true, userId: account.id };
}
