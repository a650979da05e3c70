// Passkey sign-ins for bench/run.mjs and bench/sign-in-cpu.mjs: each sign-in account gets a passkey
// of a software authenticator (test/support/soft-authenticator.mjs, an ES256 key from Node's
// crypto), registered through the service itself as a person adds one in the portal, and signs in
// with it from the sign-in page as the passkey button's script does.
import { appSessionCookie, Browser, codeOfRedirect, exchangeCode, openSignInPage, postForm, USER_PASSWORD } from "./sign-in.mjs";
import { SoftAuthenticator } from "../test/support/soft-authenticator.mjs";

const unescape = (s) => s.replace(/&amp;/g, "&").replace(/&quot;/g, '"').replace(/&#39;/g, "'");

/** A tRPC mutation of the portal with the session's cookies; its data, or an error. */
async function portalMutation(baseUrl, cookie, procedure, input) {
  const res = await fetch(`${baseUrl}/api/trpc/${procedure}`, { method: "POST", headers: { "content-type": "application/json", cookie }, body: JSON.stringify(input) });
  const body = await res.json();
  if (res.status !== 200 || !body.result) throw new Error(`${procedure} answered ${res.status}: ${JSON.stringify(body.error ?? body).slice(0, 300)}`);
  return body.result.data;
}

/**
 * A passkey for each of `subs` (accounts with the bench's password), added in the portal as a person
 * does: a sign-in to the portal with the password, then `portal.passkeys.start` and
 * `portal.passkeys.finish` with the authenticator's answer, so the service stores the authenticator's
 * public key by its own code. The relying party is the service's public origin and its host, as in
 * test/api/passkeys.test.ts. Returns the authenticators, in the order of `subs`.
 */
export async function registerPasskeys(baseUrl, subs) {
  const origin = new URL(baseUrl).origin;
  const rpId = new URL(baseUrl).hostname;
  const authenticators = [];
  // A few at a time: each starts with a password sign-in (one argon2id verification).
  for (let from = 0; from < subs.length; from += 4) {
    authenticators.push(
      ...(await Promise.all(
        subs.slice(from, from + 4).map(async (sub, k) => {
          const cookie = await appSessionCookie(baseUrl, new Browser(3000 + from + k), "idp-portal", "/account", sub, USER_PASSWORD);
          const authenticator = new SoftAuthenticator(origin, rpId);
          const options = await portalMutation(baseUrl, cookie, "portal.passkeys.start", {});
          const added = await portalMutation(baseUrl, cookie, "portal.passkeys.finish", { answer: authenticator.register(options), name: "Bench" });
          if (added.id !== authenticator.id) throw new Error(`portal.passkeys.finish added ${added.id}, not ${authenticator.id}`);
          return authenticator;
        }),
      )),
    );
  }
  await checkPasskeySignIn(baseUrl, authenticators[0], subs[0]);
  return authenticators;
}

/**
 * What the load counts is a passkey sign-in, checked once the whole way: the code it ends with is
 * exchanged, and the ID token names the passkey's account and a key (RFC 8176 "swk") as the method.
 */
async function checkPasskeySignIn(baseUrl, authenticator, sub) {
  const tokens = await exchangeCode(baseUrl, await passkeySignInOnce(baseUrl, new Browser(0), authenticator));
  const claims = JSON.parse(Buffer.from(tokens.id_token.split(".")[1], "base64url").toString());
  if (claims.sub !== sub || !claims.amr?.includes("swk")) throw new Error(`a passkey sign-in of ${sub} gave an ID token of ${claims.sub} by ${claims.amr}`);
}

/** The page's passkey form (id passkey-form): where its options come from, where the answer goes, its CSRF token. */
function passkeyForm(html) {
  const m = /<form method="post" action="([^"]*)" id="passkey-form" data-options="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  const csrf = m && /<input type="hidden" name="csrf_token" value="([^"]*)">/.exec(m[3]);
  if (!csrf) throw new Error(`no passkey form on the page:\n${html.slice(0, 400)}`);
  return { action: unescape(m[1]), options: unescape(m[2]), csrf: unescape(csrf[1]) };
}

/** The sign-in page of a new flow (the authorization request, the page) and its passkey form. */
export async function passkeyPage(baseUrl, browser, onStep = () => undefined) {
  const page = await openSignInPage(baseUrl, browser, onStep);
  return { ...page, form: passkeyForm(page.html) };
}

/** The options for navigator.credentials.get() that the page's script asks for, with the form's CSRF token. */
export async function passkeyOptions(browser, page) {
  const options = await postForm(browser, page.form.options, page.loginUrl, { csrf_token: page.form.csrf });
  if (options.status !== 200) throw new Error(`passkey options answered ${options.status}: ${options.text.slice(0, 200)}`);
  return JSON.parse(options.text);
}

/**
 * One passkey sign-in as the sign-in page's script makes it: the authorization request, the page, a
 * POST for the options (with the form's CSRF token), the authenticator's answer POSTed with the form.
 * Ends with the redirect back to the client carrying a code, or throws (codeOfRedirect): an answer
 * the service refused is not counted as a sign-in. `onStep` as for signInOnce.
 */
export async function passkeySignInOnce(baseUrl, browser, authenticator, onStep = () => undefined) {
  const page = await passkeyPage(baseUrl, browser, onStep);
  onStep("passkey options");
  const answer = authenticator.authenticate(await passkeyOptions(browser, page));
  onStep("passkey answer submitted");
  const done = await postForm(browser, page.form.action, page.loginUrl, { csrf_token: page.form.csrf, answer: JSON.stringify(answer) });
  onStep();
  return { code: codeOfRedirect(done, "passkey"), verifier: page.verifier };
}

/** signInLoad's options for passkey sign-ins: the i-th browser signs in with the i-th authenticator. */
export const passkeyLoad = (baseUrl, authenticators) => ({
  name: "passkey sign-ins through the sign-in page",
  signIn: (browser, i) => passkeySignInOnce(baseUrl, browser, authenticators[i]),
});
