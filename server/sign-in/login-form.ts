// The sign-in form of a flow: shown, and submitted with a password. The login page shows it; the
// external-account link page shows it too, to link the account a provider confirmed.
import { getConfig } from "../config/config.ts";
import { AppError } from "../errors/app-error.ts";
import { readCookie } from "../http/cookies.ts";
import { DEVICE_COOKIE } from "../sessions/sessions.service.ts";
import { browserActor, type TRequestContext } from "../http/request-context.ts";
import { readForm } from "../http/form.ts";
import { CSRF_COOKIE } from "./csrf.ts";
import { clientOf, continueSignIn } from "./flow-completion.ts";
import { checkCsrf, csrfFieldOf, offersQr, type TFlow } from "./login-flows.service.ts";
import { errorMessage, pickLang, type TLang } from "../html/texts.ts";
import { textsFor, waitText, type TText } from "./pages/i18n.ts";
import { htmlResponse, pageLink } from "../html/layout.ts";
import { loginView } from "./pages/views.ts";
import { demandsPhishingResistant } from "../oauth/authorize/acr.ts";
import { passkeyScriptPath } from "./pages/passkey-script.ts";
import type { TExternalIdentity } from "../federation/external-auth/index.ts";
import { linkWhenSignedIn, offeredProviders } from "./external-login.service.ts";
import { checkCredentials, MAX_IDENTIFIER, MAX_PASSWORD, type TSignInResult } from "./sign-in.service.ts";
import type { TAnswer, TIncoming } from "../http/exchange.ts";

export type TRefusal = {
  code: "login.missing_credentials" | "login.invalid_credentials" | "login.passkey_refused" | "login.passkey_required" | "login.locked_out" | "login.account_locked" | "login.directory_disabled" | "login.directory_unavailable" | "login.password_locked" | "login.inactivity_locked"
    // An external provider's refusal, when its button was pressed on this form (external-login-callback.ts).
    | "federation.provider_refused" | "federation.provider_unavailable" | "federation.provider_not_found";
  retryAfterS?: number;
};

/** An unbound external account the form is to link (the link page of external-login.routes.ts), and whether it may register instead. */
export type TLinking = { identity: TExternalIdentity; register: boolean };

/**
 * The sign-in form of a flow, with a refusal when there was one. While `linking`, the same form
 * says which external account the password links, and offers no other way in than registering.
 */
export async function renderLogin(req: TIncoming, flow: TFlow, identifier: string | undefined, refusal?: TRefusal, linking?: TLinking): Promise<TAnswer> {
  const csrf = csrfFieldOf(flow, readCookie(req, CSRF_COOKIE));
  if (!csrf) throw new AppError("login.csrf_failed");
  const [client, providers] = await Promise.all([clientOf(flow), linking ? [] : offeredProviders()]);
  const lang = pickLang(req, flow.request.uiLocales);
  const t = textsFor(lang);
  const error = refusal && refusalText(lang, t, refusal);
  const path = linking ? "/login/fa/link" : "/login";
  const external = linking?.identity;
  const markup = loginView({
    lang,
    t,
    clientName: client.name,
    action: pageLink(path, { flow: flow.id, lang }),
    switchUrl: pageLink(path, { flow: flow.id, lang: lang === "ru" ? "en" : "ru" }),
    csrf,
    identifier,
    error,
    notice: external && t("login.linkNotice", { provider: external.provider.fpName, name: external.userName ?? external.sid }),
    qrAction: linking || !offersQr(flow) ? undefined : pageLink("/login/qr", { flow: flow.id, lang }),
    registerUrl: (linking ? linking.register : getConfig().selfSignUp) ? pageLink("/register", { flow: flow.id, lang }) : undefined,
    registerLabel: linking ? t("login.linkRegister") : undefined,
    // Not while linking: that form proves the password, which a recovery would not.
    recoverUrl: !linking && (getConfig().recovery.email || getConfig().recovery.phone) ? pageLink("/login/recover", { flow: flow.id, lang }) : undefined,
    backUrl: linking ? pageLink("/login", { flow: flow.id, lang }) : undefined,
    // Not while linking either: a passkey proves an account here, not the password the link asks for.
    passkey: linking ? undefined : { action: pageLink("/login/passkey", { flow: flow.id, lang }), options: pageLink("/login/passkey/options", { flow: flow.id }), script: passkeyScriptPath() },
    external: { action: pageLink("/login/fa", { flow: flow.id, lang }), providers: providers.map((p) => ({ label: p.label, name: p.fpName })) },
    passkeyOnly: !linking && demandsPhishingResistant(flow.request.acrValues),
  });
  const status = refusal ? new AppError(refusal.code).status : 200;
  // The passkey button's script is the page's only one: that one file of the service's, by its exact address.
  return htmlResponse(markup, status, refusal?.retryAfterS ? { "retry-after": String(refusal.retryAfterS) } : {}, linking ? undefined : passkeyScriptPath());
}

/** The words of a refusal: the federation codes share theirs with the error page. */
function refusalText(lang: TLang, t: TText, refusal: TRefusal): string {
  if (refusal.code === "login.locked_out") return t(refusal.code, { wait: waitText(t, refusal.retryAfterS!) });
  return refusal.code.startsWith("federation.") ? errorMessage(lang, refusal.code)! : t(refusal.code as Exclude<TRefusal["code"], `federation.${string}`>);
}

const REFUSALS: Record<Exclude<TSignInResult, { ok: true }>["reason"], TRefusal["code"]> = {
  invalid_credentials: "login.invalid_credentials",
  locked_out: "login.locked_out",
  account_locked: "login.account_locked",
  directory_disabled: "login.directory_disabled",
  directory_unavailable: "login.directory_unavailable",
};

/**
 * Checks the password, then signs in (see completeSignIn), or shows the form again with the refusal.
 * While linking, an accepted password (not when password sign-in is locked for the account) marks the
 * external account for this account; it is bound only when the sign-in completes, after the second
 * factor and a new password the account may still ask for (see linkWhenSignedIn). Those steps apply
 * to every later sign-in with it as well.
 */
async function signIn(req: TIncoming, ctx: TRequestContext, flow: TFlow, identifier: string, password: string, linking?: TLinking): Promise<TAnswer> {
  const client = await clientOf(flow);
  const actor = { clientId: client.id, ...browserActor(req) };
  // Longer input cannot be a real account's: refused like any wrong password, without hashing megabytes.
  const result: TSignInResult =
    identifier.length > MAX_IDENTIFIER || password.length > MAX_PASSWORD ? { ok: false, reason: "invalid_credentials" } : await checkCredentials({ identifier, password, deviceKey: readCookie(req, DEVICE_COOKIE) }, actor);
  if (!result.ok) {
    return renderLogin(req, flow, identifier, { code: REFUSALS[result.reason], retryAfterS: "retryAfterS" in result ? result.retryAfterS : undefined }, linking);
  }
  const link = linking && (() => linkWhenSignedIn(flow.id, linking.identity, result.userId));
  return continueSignIn(req, ctx, flow, client, result, (code) => renderLogin(req, flow, identifier, { code }, linking), link || undefined);
}

/** The sign-in form as submitted: to sign in, or (`linking`) to link an external account and sign in. */
export async function submitCredentials(req: TIncoming, ctx: TRequestContext, flow: TFlow, linking?: TLinking): Promise<TAnswer> {
  if (flow.step !== "credentials") throw new AppError("login.flow_not_found");
  const form = await readForm(req);
  checkCsrf(flow, readCookie(req, CSRF_COOKIE), form.get("csrf_token"));
  const identifier = (form.get("identifier") ?? "").trim();
  const password = form.get("password") ?? "";
  // The application asked for a passkey: a password is not even checked.
  if (demandsPhishingResistant(flow.request.acrValues)) return renderLogin(req, flow, undefined, { code: "login.passkey_required" }, linking);
  if (!identifier || !password) return renderLogin(req, flow, identifier || undefined, { code: "login.missing_credentials" }, linking);
  return signIn(req, ctx, flow, identifier, password, linking);
}

