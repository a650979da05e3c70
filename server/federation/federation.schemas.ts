import { z } from "zod";
import { providerUrlProblem } from "./provider-urls.ts";

export const FP_TYPES = ["oidc", "oauth2"] as const;
export const ZFpType = z.enum(FP_TYPES).describe("provider type: `oidc` (OpenID Connect) or `oauth2` (plain OAuth 2.0 with a userinfo endpoint)");
export type TFpType = z.infer<typeof ZFpType>;

// fpName appears in paths and in the scope fed_tkn_{fpType}_{fpName}: letters, digits, `.`, `_`, `-`.
export const ZFpName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "1–64 letters, digits, '.', '_' or '-', starting with a letter or digit")
  .describe("provider name");
export const ZSid = z.string().min(1).max(256).describe("account id at the external provider");

const ZProviderUrl = z
  .string()
  .max(2048)
  .superRefine((v, ctx) => {
    const problem = providerUrlProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
const ZClaim = z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, "a claim name: 1–64 letters, digits, '_', '.', ':' or '-'");

/**
 * A provider as the import file and the console give it. `clientSecret` is write-only: given, it is
 * sealed and replaces the stored one; absent, the stored one is kept.
 */
export const ZProviderInput = z
  .strictObject({
    fpType: ZFpType,
    fpName: ZFpName,
    clientId: z.string().min(1).max(512),
    clientSecret: z.string().min(1).max(2048).optional(),
    discoveryUrl: ZProviderUrl.optional(),
    authorizationEndpoint: ZProviderUrl.optional(),
    tokenEndpoint: ZProviderUrl.optional(),
    userinfoEndpoint: ZProviderUrl.optional(),
    jwksUri: ZProviderUrl.optional(),
    issuer: z.string().min(1).max(2048).optional(),
    scopes: z.array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]{1,128}$/, "a scope token (RFC 6749 §3.3)")).max(50).default([]),
    sidClaim: ZClaim.default("sub"),
    userNameClaim: ZClaim.default("preferred_username"),
    offeredAtSignIn: z.boolean().default(false),
    rememberTokens: z.boolean().default(false),
    minTokenLifeS: z.number().int().min(0).max(86_400).default(30),
    allowRegistration: z.boolean().default(false),
  })
  .superRefine((p, ctx) => {
    const need = (fields: (keyof typeof p)[], why: string) => {
      for (const f of fields) if (!p[f]) ctx.addIssue({ code: "custom", message: `required ${why}`, path: [f] });
    };
    if (p.fpType === "oauth2") need(["authorizationEndpoint", "tokenEndpoint", "userinfoEndpoint"], "for an oauth2 provider");
    else if (!p.discoveryUrl) need(["authorizationEndpoint", "tokenEndpoint", "jwksUri", "issuer"], "for an oidc provider without discoveryUrl");
  });
export type TProviderInput = z.input<typeof ZProviderInput>;
export type TProviderParsed = z.output<typeof ZProviderInput>;

/** A provider as the console shows it: never the secret, only whether one is set. */
export type TProviderView = Omit<TProviderParsed, "clientSecret"> & { hasClientSecret: boolean; bindings: number };

export const ZProviderKey = z.strictObject({ fpType: ZFpType, fpName: ZFpName });
export type TProviderKey = z.infer<typeof ZProviderKey>;
