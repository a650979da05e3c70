import { z } from "zod";
import { ZAttributeName, ZAttributeSelection } from "../../../attributes/attributes.schemas.ts";
import { getCatalog, removeAttribute, saveAttribute } from "../../../attributes/attributes.service.ts";
import { getSelections, setSelection } from "../../../attributes/selections.service.ts";
import { ZClientId } from "../../../clients/clients.schemas.ts";
import { adminProcedure, consoleReadProcedure, createRouter } from "../../init.ts";

/** The attribute catalog and per-client selections: adapters over the attribute services. */
export const attributesRouter = createRouter({
  list: consoleReadProcedure.query(async () => {
    const catalog = await getCatalog();
    return catalog.defs.map((d) => ({ ...d, builtin: catalog.builtin.has(d.name) }));
  }),

  /** Validated by the service with the same schema the import uses, so field errors match. */
  save: adminProcedure.input(z.record(z.string(), z.unknown())).mutation(({ input, ctx }) => saveAttribute(input, ctx.actor)),

  remove: adminProcedure.input(z.strictObject({ name: ZAttributeName })).mutation(({ input, ctx }) => removeAttribute(input.name, ctx.actor)),

  selections: consoleReadProcedure.input(z.strictObject({ clientId: ZClientId })).query(({ input }) => getSelections(input.clientId)),

  setSelection: adminProcedure
    .input(ZAttributeSelection.extend({ clientId: ZClientId }))
    .mutation(({ input: { clientId, ...selection }, ctx }) => setSelection(clientId, selection, ctx.actor)),
});
