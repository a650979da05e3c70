import { createRouter } from "./init.ts";
import { accountSecurityRouter } from "./routers/console/account-security.router.ts";
import { attributesRouter } from "./routers/console/attributes.router.ts";
import { brandingRouter } from "./routers/console/branding.router.ts";
import { clientsRouter } from "./routers/console/clients.router.ts";
import { dashboardRouter } from "./routers/console/dashboard.router.ts";
import { deliveryRouter } from "./routers/console/delivery.router.ts";
import { eventsRouter } from "./routers/console/events.router.ts";
import { groupsRouter } from "./routers/console/groups.router.ts";
import { outboxRouter } from "./routers/console/outbox.router.ts";
import { passkeysConsoleRouter } from "./routers/console/passkeys.router.ts";
import { passwordPolicyRouter } from "./routers/console/password-policy.router.ts";
import { passkeyPolicyRouter } from "./routers/console/passkey-policy.router.ts";
import { rightsRouter } from "./routers/console/rights.router.ts";
import { otpRouter } from "./routers/console/otp.router.ts";
import { providersRouter } from "./routers/console/providers.router.ts";
import { signingKeysRouter } from "./routers/console/signing-keys.router.ts";
import { samlKeysRouter } from "./routers/console/saml-keys.router.ts";
import { samlSpsRouter } from "./routers/console/saml-sps.router.ts";
import { directoriesRouter } from "./routers/console/directories.router.ts";
import { sessionsRouter } from "./routers/console/sessions.router.ts";
import { templatesRouter } from "./routers/console/templates.router.ts";
import { usersRouter } from "./routers/console/users.router.ts";
import { portalRouter } from "./routers/portal/portal.router.ts";

export const appRouter = createRouter({
  console: createRouter({
    dashboard: dashboardRouter,
    clients: clientsRouter,
    users: usersRouter,
    attributes: attributesRouter,
    outbox: outboxRouter,
    delivery: deliveryRouter,
    templates: templatesRouter,
    sessions: sessionsRouter,
    events: eventsRouter,
    passwordPolicy: passwordPolicyRouter,
    passkeyPolicy: passkeyPolicyRouter,
    branding: brandingRouter,
    accountSecurity: accountSecurityRouter,
    otp: otpRouter,
    passkeys: passkeysConsoleRouter,
    rights: rightsRouter,
    providers: providersRouter,
    groups: groupsRouter,
    signingKeys: signingKeysRouter,
    samlKeys: samlKeysRouter,
    samlSps: samlSpsRouter,
    directories: directoriesRouter,
  }),
  portal: portalRouter,
});

export type AppRouter = typeof appRouter;
