import { z } from "zod";
import { adminNote } from "../../../audit/audit.service.ts";
import { CONSOLE_PARTY_TYPES } from "../../../rights/api/console.ts";
import { listDefinitions, putDefinition, removeDefinition } from "../../../rights/definitions.service.ts";
import { changeRights } from "../../../rights/grants.service.ts";
import { browseRights, findParties } from "../../../rights/rights-console.service.ts";
import { ZRightDefinitionInput, ZRightName, ZRightRecord } from "../../../rights/rights.schemas.ts";
import { adminProcedure, consoleReadProcedure, createRouter } from "../../init.ts";

const ZPartyType = z.enum(CONSOLE_PARTY_TYPES);

/**
 * Right definitions and the rights browser: adapters over the services of the REST API, so the same
 * validation, unknown_* errors, caches and security events apply, the administrator acting.
 */
export const rightsRouter = createRouter({
  definitions: consoleReadProcedure.query(() => listDefinitions()),

  /** `create` refuses a name already defined (409 right_exists) instead of replacing it, as PUT would. */
  saveDefinition: adminProcedure
    .input(ZRightDefinitionInput.extend({ name: ZRightName, create: z.boolean() }))
    .mutation(({ input: { name, create, ...def }, ctx }) => putDefinition(name, def, ctx.actor, { create, note: adminNote(ctx.actor) })),

  removeDefinition: adminProcedure
    .input(z.strictObject({ name: ZRightName, force: z.boolean().default(false) }))
    .mutation(({ input, ctx }) => removeDefinition(input.name, input.force, ctx.actor, adminNote(ctx.actor))),

  findParties: consoleReadProcedure
    .input(z.strictObject({ type: ZPartyType, search: z.string().max(100).default(""), notInGroup: z.string().min(1).max(256).optional() }))
    .query(({ input }) => findParties(input.type, input.search, input.notInGroup)),

  browse: consoleReadProcedure
    .input(z.strictObject({ type: ZPartyType, id: z.string().min(1).max(256), ext: z.string().max(128).optional() }))
    .query(({ input }) => browseRights(input)),

  grant: adminProcedure.input(ZRightRecord).mutation(({ input, ctx }) => changeRights("granted", input, ctx.actor, adminNote(ctx.actor))),

  revoke: adminProcedure.input(ZRightRecord).mutation(({ input, ctx }) => changeRights("revoked", input, ctx.actor, adminNote(ctx.actor))),
});
