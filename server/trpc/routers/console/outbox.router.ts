import { ZListOutboxRequest, ZMessageRef } from "../../../messaging/messaging.schemas.ts";
import { listOutbox, readMessageText, resendMessage } from "../../../messaging/outbox.service.ts";
import { adminProcedure, consoleReadProcedure, createRouter } from "../../init.ts";

/** The outbox in the console: adapters over the messaging services, nothing decided here. */
export const outboxRouter = createRouter({
  list: consoleReadProcedure.input(ZListOutboxRequest).query(({ input }) => listOutbox(input)),

  /** A message's text, decrypted; each read is in the audit trail. */
  text: adminProcedure.input(ZMessageRef).query(({ input, ctx }) => readMessageText(input.id, ctx.actor)),

  resend: adminProcedure.input(ZMessageRef).mutation(({ input, ctx }) => resendMessage(input.id, ctx.actor)),
});
