import { z } from "zod";
import { discoveryDocument } from "../../../oauth/discovery.service.ts";
import { OIDC_SCOPES, SYSTEM_SCOPES, USER_SCOPES } from "../../../clients/known-scopes.ts";
import {
  clientDeletionImpact,
  createClient,
  deleteClient,
  getClient,
  listClients,
  rotateClientSecret,
  setRestPassword,
  updateClient,
} from "../../../clients/clients.service.ts";
import {
  ZClientId,
  ZCreateClientRequest,
  ZListClientsRequest,
  ZUpdateClientRequest,
} from "../../../clients/clients.schemas.ts";
import { adminProcedure, consoleReadProcedure, createRouter } from "../../init.ts";

const ZClientRef = z.strictObject({ id: ZClientId });

/** Client applications in the console: adapters over clients.service, nothing decided here. */
export const clientsRouter = createRouter({
  list: consoleReadProcedure.input(ZListClientsRequest).query(({ input }) => listClients(input)),

  get: consoleReadProcedure.input(ZClientRef).query(({ input }) => getClient(input.id)),

  /** The answer carries the generated secret: the only time it exists outside its hash. */
  create: adminProcedure.input(ZCreateClientRequest).mutation(({ input, ctx }) => createClient(input, ctx.actor)),

  // The id sits beside the fields rather than wrapping them, so field errors name the form's fields.
  update: adminProcedure
    .input(ZUpdateClientRequest.extend({ id: ZClientId }))
    .mutation(({ input: { id, ...patch }, ctx }) => updateClient(id, patch, ctx.actor)),

  /** The addresses an application is configured with, for its quick start. */
  endpoints: consoleReadProcedure.query(() => {
    const d = discoveryDocument();
    return {
      issuer: d.issuer,
      discovery: `${d.issuer}/.well-known/openid-configuration`,
      authorization: d.authorization_endpoint,
      token: d.token_endpoint,
      userinfo: d.userinfo_endpoint,
      jwks: d.jwks_uri,
      endSession: d.end_session_endpoint,
      revocation: d.revocation_endpoint,
    };
  }),

  /** The scopes the form offers; any other is refused by the service. */
  knownScopes: consoleReadProcedure.query(() => ({ system: [...SYSTEM_SCOPES], user: [...USER_SCOPES], standard: [...OIDC_SCOPES] })),

  deletionImpact: consoleReadProcedure.input(ZClientRef).query(({ input }) => clientDeletionImpact(input.id)),

  delete: adminProcedure.input(ZClientRef).mutation(({ input, ctx }) => deleteClient(input.id, ctx.actor)),

  rotateSecret: adminProcedure.input(ZClientRef).mutation(({ input, ctx }) => rotateClientSecret(input.id, ctx.actor)),

  setRestPassword: adminProcedure
    .input(z.strictObject({ id: ZClientId, enable: z.boolean() }))
    .mutation(({ input, ctx }) => setRestPassword(input.id, input.enable, ctx.actor)),
});
