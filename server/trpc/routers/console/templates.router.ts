import { listTemplates, previewTemplate, resetTemplate, saveTemplate } from "../../../messaging/message-templates.service.ts";
import { ZTemplateKey, ZTemplateTextInput } from "../../../messaging/messaging.schemas.ts";
import { adminProcedure, consoleReadProcedure, createRouter } from "../../init.ts";

/** The texts of messages: read and previewed by anyone in the console, rewritten by administrators. */
export const templatesRouter = createRouter({
  list: consoleReadProcedure.query(() => listTemplates()),
  // A mutation only so the text travels in a POST body: as a query it would be a URL of up to 12 KB.
  preview: consoleReadProcedure.input(ZTemplateTextInput).mutation(({ input }) => previewTemplate(input)),
  save: adminProcedure.input(ZTemplateTextInput).mutation(({ input, ctx }) => saveTemplate(input, ctx.actor)),
  reset: adminProcedure.input(ZTemplateKey).mutation(({ input, ctx }) => resetTemplate(input, ctx.actor)),
});
