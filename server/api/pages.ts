import { logoRoute } from "../branding/branding.routes.ts";
import { consentPage, consentSubmit } from "../sign-in/consent.routes.ts";
import { externalLinkPage, externalLinkSubmit, externalStart } from "../sign-in/external-login.routes.ts";
import { otpStepPage, otpStepSubmit, passkeyFactorOptionsRoute, passkeyFactorSubmit, passwordStepPage, passwordStepSubmit } from "../sign-in/login-steps.routes.ts";
import { loginPage, loginSubmit } from "../sign-in/login.routes.ts";
import { passkeyLinkOptions, passkeyLinkSubmit, recoveryLinkPage, recoveryLinkSubmit } from "../recovery/recovery-link.routes.ts";
import { recoverCodePage, recoverCodeSubmit, recoverPage, recoverPasswordPage, recoverPasswordSubmit, recoverSubmit } from "../recovery/recovery.routes.ts";
import { passkeyOptions, passkeyScript, passkeySubmit } from "../sign-in/passkey-login.routes.ts";
import { qrPage, qrStart, qrStatus } from "../sign-in/qr-login.routes.ts";
import { codesPage, codesSubmit, registerPage, registerSubmit } from "../sign-in/signup.routes.ts";
import { samlIdpInitiatedPage, samlSloContinuePage, samlSsoContinuePage, samlSsoReturnPage } from "../saml/sso/sso.pages.ts";
import { signUpPasskeyOptionsRoute, signUpPasskeyPage, signUpPasskeySubmit } from "../sign-in/signup-passkey.routes.ts";

/**
 * The service's own browser pages (sign-in, its steps, recovery, sign-up, consent): not operations of the API
 * document, but served like them by the node:http transport (publish.ts). The app/ route file of
 * each page's path exports the same handler (server/serve/operation-table.test.ts holds the two
 * together).
 */
export const PAGES = [
  samlSsoContinuePage,
  samlSsoReturnPage,
  samlIdpInitiatedPage,
  samlSloContinuePage,
  loginPage,
  loginSubmit,
  otpStepPage,
  otpStepSubmit,
  passkeyFactorOptionsRoute,
  passkeyFactorSubmit,
  passwordStepPage,
  passwordStepSubmit,
  recoverPage,
  recoverSubmit,
  recoverCodePage,
  recoverCodeSubmit,
  recoverPasswordPage,
  recoverPasswordSubmit,
  recoveryLinkPage,
  recoveryLinkSubmit,
  passkeyLinkOptions,
  passkeyLinkSubmit,
  externalStart,
  externalLinkPage,
  externalLinkSubmit,
  qrStart,
  qrPage,
  qrStatus,
  passkeyScript,
  passkeyOptions,
  passkeySubmit,
  registerPage,
  registerSubmit,
  codesPage,
  codesSubmit,
  signUpPasskeyPage,
  signUpPasskeyOptionsRoute,
  signUpPasskeySubmit,
  consentPage,
  consentSubmit,
  logoRoute,
];
