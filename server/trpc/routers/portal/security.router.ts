import { listOwnConsents, revokeOwnConsent } from "../../../portal/consents.service.ts";
import { listOwnDevices, signOutOwnDevice } from "../../../portal/devices.service.ts";
import { listOwnEvents } from "../../../portal/events.service.ts";
import { changeOwnPassword, ownPasswordRules } from "../../../portal/password.service.ts";
import { ZConsentRef, ZDeviceRef, ZEventsQuery, ZOwnPasswordChange } from "../../../portal/portal.schemas.ts";
import { createRouter, portalProcedure, sensitivePortalProcedure } from "../../init.ts";

/** Devices, consents and the security events of the signed-in person: adapters over …/apps, …/acls and …/audit. */
export const devicesRouter = createRouter({
  list: portalProcedure.query(({ ctx }) => listOwnDevices(ctx.user.sub, ctx.deviceKey)),
  signOut: portalProcedure.input(ZDeviceRef).mutation(({ ctx, input }) => signOutOwnDevice(ctx.user.sub, input.id, ctx.actor)),
});

export const consentsRouter = createRouter({
  list: portalProcedure.query(({ ctx }) => listOwnConsents(ctx.user.sub)),
  revoke: portalProcedure.input(ZConsentRef).mutation(({ ctx, input }) => revokeOwnConsent(ctx.user.sub, input.id, ctx.actor)),
});

export const eventsRouter = createRouter({
  list: portalProcedure.input(ZEventsQuery).query(({ ctx, input }) => listOwnEvents(ctx.user.sub, input)),
});

export const passwordRouter = createRouter({
  rules: portalProcedure.query(({ ctx }) => ownPasswordRules(ctx.user.sub)),
  change: sensitivePortalProcedure.input(ZOwnPasswordChange).mutation(({ ctx, input }) => changeOwnPassword(ctx.user.sub, input, ctx.deviceKey, ctx.actor)),
});
