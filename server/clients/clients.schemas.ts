import { z } from "zod";
import { ATTRIBUTE_SCOPES, ZAttributeName } from "../attributes/attributes.schemas.ts";

/** RFC 6749 §3.3 scope-token: printable ASCII except space, `"` and `\`. */
export const ZScopeName = z
  .string()
  .regex(/^[\x21\x23-\x5B\x5D-\x7E]{1,128}$/, "a scope is 1-128 printable ASCII characters without spaces, quotes or backslashes");

export const ZClientId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._~:@+-]{0,127}$/, "a client id is 1-128 letters, digits or . _ ~ : @ + - and starts with a letter or digit");

const ZScopeList = z
  .array(ZScopeName)
  .max(200)
  .refine((a) => new Set(a).size === a.length, "scopes must not repeat");

const ZRedirectUri = z
  .url({ error: "must be an absolute URL" })
  .max(2000)
  .refine((u) => !u.includes("#"), "must not contain a fragment (RFC 6749 §3.1.2)");

const ZSecret = z.string().min(8, "must be at least 8 characters").max(512);

/** A client application as the import document and the console describe it. */
export const ZClientInput = z.strictObject({
  id: ZClientId,
  name: z.string().trim().min(1, "must not be empty").max(200),
  secret: ZSecret,
  restPassword: ZSecret.optional(),
  scopes: ZScopeList,
  userScopes: ZScopeList.optional(),
  redirectUris: z.array(ZRedirectUri).max(50).optional(),
  tlsCNs: z.array(z.string().trim().min(1).max(255)).max(50).optional(),
  /** Per attribute scope, the attributes the client may use; an unlisted scope means all of them. */
  attributes: z.partialRecord(z.enum(ATTRIBUTE_SCOPES), z.array(ZAttributeName).max(200)).optional(),
});
export type TClientInput = z.infer<typeof ZClientInput>;

/** Console creation: the secret is generated and shown once. */
export const ZCreateClientRequest = ZClientInput.omit({ secret: true, restPassword: true, attributes: true });
export type TCreateClientRequest = z.infer<typeof ZCreateClientRequest>;

/** Console edit: everything but the id and the credentials, which have their own operations. */
export const ZUpdateClientRequest = ZClientInput.omit({ id: true, secret: true, restPassword: true, attributes: true }).extend({
  enabled: z.boolean(),
});
export type TUpdateClientRequest = z.infer<typeof ZUpdateClientRequest>;

export const ZListClientsRequest = z.strictObject({
  search: z.string().trim().max(100).optional(),
  /** Keyset cursor: the id of the last client on the previous page. */
  after: ZClientId.optional(),
  limit: z.number().int().min(1).max(100).default(25),
});
export type TListClientsRequest = z.input<typeof ZListClientsRequest>;

/** What leaves the service about a client: never a hash. */
export const ZClientView = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  userScopes: z.array(z.string()),
  redirectUris: z.array(z.string()),
  tlsCNs: z.array(z.string()),
  enabled: z.boolean(),
  hasRestPassword: z.boolean(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type TClientView = z.infer<typeof ZClientView>;
