import { secondsLeftForChanges } from "../../../auth/recent-sign-in.ts";
import { readOverview } from "../../../portal/overview.service.ts";
import { createRouter, portalProcedure } from "../../init.ts";
import { otpPortalRouter } from "./otp.router.ts";
import { passkeysPortalRouter } from "./passkeys.router.ts";
import { profileRouter } from "./profile.router.ts";
import { consentsRouter, devicesRouter, eventsRouter, passwordRouter } from "./security.router.ts";
import { securityQuestionRouter } from "./security-question.router.ts";
import { linkedAccountsRouter } from "./linked-accounts.router.ts";
import { listOpenableSps } from "../../../saml/sps/service-providers.service.ts";

/** The self-service portal: the signed-in person's own account, adapters over the same services as the REST API. */
export const portalRouter = createRouter({
  /** The overview: who is signed in, with name and contacts and whether each contact is confirmed. */
  me: portalProcedure.query(({ ctx }) => readOverview(ctx.user.sub)),
  /** Seconds left before sensitive changes need a new sign-in: the pages ask before the person types, not after. */
  recentSignIn: portalProcedure.query(({ ctx }) => ({ secondsLeft: secondsLeftForChanges(ctx.portalSession) })),
  profile: profileRouter,
  devices: devicesRouter,
  consents: consentsRouter,
  events: eventsRouter,
  password: passwordRouter,
  securityQuestion: securityQuestionRouter,
  otp: otpPortalRouter,
  passkeys: passkeysPortalRouter,
  linkedAccounts: linkedAccountsRouter,
  /** SAML applications the person may open from here: each link signs them in to it (IdP-initiated). */
  samlApps: portalProcedure.query(() => listOpenableSps()),
});
