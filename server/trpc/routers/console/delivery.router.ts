import { describeDelivery, saveDeliverySettings, sendTestMessage } from "../../../messaging/delivery-console.service.ts";
import { ZDeliverySettingsInput, ZTestMessageRequest } from "../../../messaging/messaging.schemas.ts";
import { adminProcedure, consoleReadProcedure, createRouter } from "../../init.ts";

/** Delivery settings: what is configured (no secrets), the console's own settings, and a test send. */
export const deliveryRouter = createRouter({
  settings: consoleReadProcedure.query(() => describeDelivery()),

  /** One channel's settings saved or cleared; answers the settings as the page shows them. */
  save: adminProcedure.input(ZDeliverySettingsInput).mutation(({ input, ctx }) => saveDeliverySettings(input, ctx.actor)),

  /** Answers the transport's outcome, failure included: the console shows its error text. */
  sendTest: adminProcedure.input(ZTestMessageRequest).mutation(({ input, ctx }) => sendTestMessage(input, ctx.actor)),
});
