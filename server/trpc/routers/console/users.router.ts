import { z } from "zod";
import {
  createUser,
  deleteUser,
  getUserDetail,
  listUsers,
  setUserPassword,
  updateUserAttributes,
  ZListUsersRequest,
} from "../../../users/users-console.service.ts";
import { adminNote } from "../../../audit/audit.service.ts";
import { BULK_ACTIONS, bulkAction, exportUsers, ZBulkSubs } from "../../../users/users-bulk-console.service.ts";
import { CONSOLE_ROLES, setConsoleRoles } from "../../../users/admin.service.ts";
import { recoveryChannelsFor, sendRecoveryMessage } from "../../../recovery/recovery-console.service.ts";
import { adminProcedure, consoleReadProcedure, createRouter, userManagerProcedure } from "../../init.ts";

const ZInstance = z.string().min(1).max(1024);
const ZAttributes = z.record(z.string().max(64), z.unknown());

/** Accounts in the console: adapters over the same services the REST API uses. */
export const usersRouter = createRouter({
  list: consoleReadProcedure.input(ZListUsersRequest).query(({ input }) => listUsers(input)),

  get: consoleReadProcedure.input(z.strictObject({ sub: z.string().min(1).max(256) })).query(({ input, ctx }) => getUserDetail(input.sub, ctx.admin.id)),

  /** `null` removes an attribute; contacts are {value, vrf} and are stored as given. */
  update: userManagerProcedure
    .input(z.strictObject({ instanceId: ZInstance, attributes: ZAttributes }))
    .mutation(({ input, ctx }) => updateUserAttributes(input.instanceId, input.attributes, ctx.actor)),

  setLocked: userManagerProcedure
    .input(z.strictObject({ instanceId: ZInstance, locked: z.boolean() }))
    .mutation(({ input, ctx }) => updateUserAttributes(input.instanceId, { locked: input.locked }, ctx.actor)),

  delete: userManagerProcedure.input(z.strictObject({ instanceId: ZInstance })).mutation(({ input, ctx }) => deleteUser(input.instanceId, ctx.actor)),

  /** A new password for the account (the policy applies; its sessions end); `mustChange`: asked again at the next sign-in. */
  setPassword: userManagerProcedure
    .input(z.strictObject({ instanceId: ZInstance, password: z.string().min(1).max(1024), mustChange: z.boolean(), locale: z.enum(["ru", "en"]) }))
    .mutation(({ input, ctx }) => setUserPassword(input.instanceId, input, ctx.actor)),

  /** Where a recovery message can go: the account's confirmed e-mail and phone. */
  recoveryChannels: consoleReadProcedure.input(z.strictObject({ sub: z.string().min(1).max(256) })).query(({ input }) => recoveryChannelsFor(input.sub)),

  /** A link that sets a new password (or enrols a passkey) once, to the person's confirmed address; the address, masked. */
  sendRecovery: userManagerProcedure
    .input(z.strictObject({ sub: z.string().min(1).max(256), channel: z.enum(["email", "phone"]), locale: z.enum(["ru", "en"]), purpose: z.enum(["password", "passkey"]).default("password") }))
    .mutation(({ input, ctx }) => sendRecoveryMessage(input.sub, input.channel, input.locale, ctx.actor, ctx.admin.grants.includes("configure"), input.purpose)),

  /** The account's console roles (its other roles stay); the last active administrator keeps theirs. */
  setRoles: adminProcedure
    .input(z.strictObject({ sub: z.string().min(1).max(256), roles: z.array(z.enum(CONSOLE_ROLES)).max(CONSOLE_ROLES.length) }))
    .mutation(({ input, ctx }) => setConsoleRoles(input.sub, input.roles, ctx.actor, adminNote(ctx.actor))),

  /** One action on each selected account, each as on its own page; refusals are reported per account. */
  bulk: userManagerProcedure
    .input(z.strictObject({ subs: ZBulkSubs, action: z.enum(BULK_ACTIONS) }))
    .mutation(({ input, ctx }) => bulkAction(input.subs, input.action, ctx.admin, ctx.actor)),

  /**
   * The selected accounts as a CSV or JSON download, for every role that reads. A mutation: it is
   * recorded as an event, and the accounts' ids travel in the body rather than in a logged URL.
   */
  export: consoleReadProcedure
    .input(z.strictObject({ subs: ZBulkSubs, format: z.enum(["csv", "json"]) }))
    .mutation(({ input, ctx }) => exportUsers(input.subs, input.format, ctx.actor)),

  create: userManagerProcedure
    .input(z.strictObject({ attributes: ZAttributes, password: z.string().max(1024).optional() }))
    .mutation(({ input, ctx }) => createUser(input, ctx.actor)),
});
