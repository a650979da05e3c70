import { describeDelivery, sendTestMessage } from "../../../messaging/delivery-console.service.ts";
import { ZTestMessageRequest } from "../../../messaging/messaging.schemas.ts";
import { adminProcedure, consoleReadProcedure, createRouter } from "../../init.ts";

/** Delivery settings: what is configured (no secrets) and a test send. */
export const deliveryRouter = createRouter({
  settings: consoleReadProcedure.query(() => describeDelivery()),

  /** Answers the transport's outcome, failure included: the console shows its error text. */
  sendTest: adminProcedure.input(ZTestMessageRequest).mutation(({ input, ctx }) => sendTestMessage(input, ctx.actor)),
});
