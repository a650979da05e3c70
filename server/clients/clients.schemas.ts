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

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Where a browser may be sent with a code (RFC 9700 §2.1, RFC 8252 §7): https; plain http only to
 * the loopback interface, where a native app listens; or an app's private-use scheme in reverse-domain
 * form (`com.example.app:/cb`, a dot in the scheme). Never javascript:, data: or another scheme a
 * browser would run or render in the service's name.
 */
export function isAllowedRedirectUri(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol === "https:") return true;
  if (url.protocol === "http:") return LOOPBACK_HOSTS.has(url.hostname);
  return url.protocol.slice(0, -1).includes(".");
}

const ZRedirectUri = z
  .url({ error: "must be an absolute URL" })
  .max(2000)
  .refine((u) => !u.includes("#"), "must not contain a fragment (RFC 6749 §3.1.2)")
  .refine(isAllowedRedirectUri, "must be https, http on the loopback interface (127.0.0.1, [::1], localhost), or a private-use scheme with a dot (com.example.app:/callback)");

const ZSecret = z.string().min(8, "must be at least 8 characters").max(512);

/** RFC 7591 software_id: the same characters as a client id. */
export const ZSoftwareId = ZClientId;

/** The system scope of an initial access token (RFC 7591 §3): a parent client's ticket to POST /oauth/register. */
export const DYN_REG_SCOPE = "idp_dyn_reg";

/** Mobile application instances that may register themselves under this client (RFC 7591), by software id. */
export const ZDynamicRegistration = z.strictObject({
  softwareIds: z
    .array(ZSoftwareId)
    .max(50)
    .refine((a) => new Set(a).size === a.length, "software ids must not repeat"),
});

/** OAuth grant types a client may be allowed. */
export const GRANT_TYPES = ["client_credentials", "authorization_code", "refresh_token"] as const;
export type TGrantType = (typeof GRANT_TYPES)[number];

/**
 * confidential: holds a secret and authenticates with it; public (a browser or mobile application):
 * has no secret, authenticates with its id alone (token_endpoint_auth_method "none") and must use PKCE.
 */
export const CLIENT_TYPES = ["confidential", "public"] as const;
export type TClientType = (typeof CLIENT_TYPES)[number];

const ZGrantTypes = z
  .array(z.enum(GRANT_TYPES))
  .max(GRANT_TYPES.length)
  .refine((a) => new Set(a).size === a.length, "grant types must not repeat");

const ZLifetime = (max: number) => z.number().int().min(60, "must be at least 60 seconds").max(max, `must be at most ${max} seconds`);

/** Per-client token lifetimes in seconds; an absent one is the server's default. */
export const ZTokenLifetimes = z.strictObject({
  accessToken: ZLifetime(86_400).optional(),
  refreshToken: ZLifetime(365 * 86_400).optional(),
  idToken: ZLifetime(86_400).optional(),
});
export type TTokenLifetimes = z.infer<typeof ZTokenLifetimes>;

const ZClientFields = z.strictObject({
  id: ZClientId,
  name: z.string().trim().min(1, "must not be empty").max(200),
  type: z.enum(CLIENT_TYPES).optional().describe("default confidential"),
  secret: ZSecret.optional().describe("required for a confidential client, refused for a public one"),
  restPassword: ZSecret.optional(),
  scopes: ZScopeList,
  userScopes: ZScopeList.optional(),
  /** First-party applications are trusted with the user's consent: no consent screen. */
  firstParty: z.boolean().optional(),
  /** PKCE is required of every client; an old confidential client that cannot send it may be let off. */
  pkceOptional: z.boolean().optional().describe("a confidential client may use the authorization code flow without PKCE (default false: PKCE required)"),
  grantTypes: ZGrantTypes.optional().describe("default: client_credentials for a confidential client, authorization_code for a public one"),
  redirectUris: z.array(ZRedirectUri).max(50).optional(),
  postLogoutRedirectUris: z.array(ZRedirectUri).max(50).optional(),
  tokenLifetimes: ZTokenLifetimes.optional(),
  tlsCNs: z.array(z.string().trim().min(1).max(255)).max(50).optional(),
  dynamicRegistration: ZDynamicRegistration.optional().describe("instances of these software ids may register at POST /oauth/register"),
  /** Per attribute scope, the attributes the client may use; an unlisted scope means all of them. */
  attributes: z.partialRecord(z.enum(ATTRIBUTE_SCOPES), z.array(ZAttributeName).max(200)).optional(),
});

/** The grant types a client has when its description names none. */
export function defaultGrantTypes(type: TClientType): TGrantType[] {
  return type === "public" ? ["authorization_code"] : ["client_credentials"];
}

/** What a client must satisfy as a whole; the console checks a client edited field by field with it too. */
export type TClientShape = {
  type: TClientType;
  hasSecret?: boolean;
  hasRestPassword?: boolean;
  scopes: string[];
  grantTypes: TGrantType[];
  redirectUris: string[];
  /** Software ids of dynamic registration; empty: off. */
  softwareIds?: string[];
};

/** Problems of a client as a whole, each with the field it concerns. */
export function clientRuleProblems(c: TClientShape): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  if (c.type === "public") {
    if (c.hasSecret) add("secret", "a public client has no secret");
    if (c.hasRestPassword) add("restPassword", "a public client has no REST password");
    if (c.grantTypes.includes("client_credentials")) add("grantTypes", "a public client cannot use client_credentials");
    if (c.scopes.length) add("scopes", "a public client cannot hold system scopes");
  } else if (c.hasSecret === false) {
    add("secret", "a confidential client needs a secret");
  }
  if (c.grantTypes.includes("authorization_code") && c.redirectUris.length === 0) add("redirectUris", "authorization_code needs at least one redirect URI");
  if (c.grantTypes.includes("refresh_token") && !c.grantTypes.includes("authorization_code")) add("grantTypes", "refresh_token is obtained only with authorization_code");
  if (c.softwareIds?.length) {
    if (!c.grantTypes.includes("authorization_code")) add("dynamicRegistration", "instances sign users in: dynamic registration needs the authorization_code grant");
    if (!c.scopes.includes(DYN_REG_SCOPE) || !c.grantTypes.includes("client_credentials")) {
      add("dynamicRegistration", `instances register with a client_credentials token of the ${DYN_REG_SCOPE} scope: the client needs both`);
    }
  }
  return problems;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/**
 * The whole-client rules as a refinement that runs even when fields failed too (so a document's
 * problems are all reported at once); it reads the raw value defensively for that reason.
 */
function refineClient(secretKnown: boolean) {
  const check = (value: unknown, ctx: z.RefinementCtx) => {
    if (typeof value !== "object" || value === null) return;
    const c = value as Record<string, unknown>;
    const type: TClientType = c.type === "public" ? "public" : "confidential";
    const shape: TClientShape = {
      type,
      hasSecret: secretKnown ? c.secret !== undefined : undefined,
      hasRestPassword: c.restPassword !== undefined,
      scopes: strings(c.scopes),
      grantTypes: c.grantTypes === undefined ? defaultGrantTypes(type) : (strings(c.grantTypes) as TGrantType[]),
      redirectUris: strings(c.redirectUris),
      softwareIds: strings((c.dynamicRegistration as Record<string, unknown> | undefined)?.softwareIds),
    };
    for (const p of clientRuleProblems(shape)) ctx.addIssue({ code: "custom", message: p.message, path: [p.path] });
  };
  return [check, { when: () => true }] as const;
}

/** A client application as the import document and the console describe it. */
export const ZClientInput = ZClientFields.superRefine(...refineClient(true));
export type TClientInput = z.infer<typeof ZClientInput>;

/**
 * Console creation: a confidential client gets a generated secret, shown once; a public one has none.
 * The console's kinds of application (web, single-page or native, machine-to-machine) are defaults
 * of these fields, chosen in the form.
 */
export const ZCreateClientRequest = ZClientFields.omit({ secret: true, restPassword: true, attributes: true }).superRefine(...refineClient(false));
export type TCreateClientRequest = z.infer<typeof ZCreateClientRequest>;

/**
 * Console edit: everything but the id, the type and the credentials, which have their own operations.
 * A field left out keeps its value; the client as a whole is checked by the service.
 */
export const ZUpdateClientRequest = ZClientFields.omit({ id: true, type: true, secret: true, restPassword: true, attributes: true }).extend({
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

/**
 * What an application is, as the console names it: a server-side web application (confidential,
 * signs people in), a single-page or native one (public, signs people in) or a machine-to-machine
 * one (confidential, tokens for itself only).
 */
export const APP_KINDS = ["web", "spa", "m2m"] as const;
export type TAppKind = (typeof APP_KINDS)[number];

export function appKindOf(c: { type: TClientType; grantTypes: readonly TGrantType[] }): TAppKind {
  if (c.type === "public") return "spa";
  return c.grantTypes.includes("authorization_code") ? "web" : "m2m";
}

/** What leaves the service about a client: never a hash. */
export const ZClientView = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(CLIENT_TYPES),
  kind: z.enum(APP_KINDS),
  firstParty: z.boolean(),
  pkceOptional: z.boolean(),
  grantTypes: z.array(z.enum(GRANT_TYPES)),
  scopes: z.array(z.string()),
  userScopes: z.array(z.string()),
  redirectUris: z.array(z.string()),
  postLogoutRedirectUris: z.array(z.string()),
  tokenLifetimes: z.object({ accessToken: z.number().nullable(), refreshToken: z.number().nullable(), idToken: z.number().nullable() }),
  tlsCNs: z.array(z.string()),
  dynamicRegistration: z.object({ softwareIds: z.array(z.string()) }),
  enabled: z.boolean(),
  hasRestPassword: z.boolean(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
export type TClientView = z.infer<typeof ZClientView>;
