import { z } from "zod";
import { listUserConsents, revokeUserConsent } from "../../../consents/consents-console.service.ts";
import { endAllSessions, listUserDevices, signOutDevice } from "../../../sessions/devices-console.service.ts";
import { consoleReadProcedure, createRouter, userManagerProcedure } from "../../init.ts";

const ZSub = z.string().min(1).max(256);
const ZUserRef = z.strictObject({ sub: ZSub });
const ZUserItemRef = z.strictObject({ sub: ZSub, id: z.string().min(1).max(256) });

/** A user's sign-in state in the console: adapters over the services of …/apps, …/acls and …/sessions/reset. */
export const sessionsRouter = createRouter({
  devices: consoleReadProcedure.input(ZUserRef).query(({ input }) => listUserDevices(input.sub)),

  signOutDevice: userManagerProcedure.input(ZUserItemRef).mutation(({ input, ctx }) => signOutDevice(input.sub, input.id, ctx.actor)),

  endAll: userManagerProcedure.input(ZUserRef).mutation(({ input, ctx }) => endAllSessions(input.sub, ctx.actor)),

  consents: consoleReadProcedure.input(ZUserRef).query(({ input }) => listUserConsents(input.sub)),

  revokeConsent: userManagerProcedure.input(ZUserItemRef).mutation(({ input, ctx }) => revokeUserConsent(input.sub, input.id, ctx.actor)),
});
