import { z } from "zod";

/**
 * RFC 7591 §2 client metadata an instance may send. Unknown metadata is ignored (§2: "the
 * authorization server MUST ignore any client metadata it does not understand"), hence a loose object.
 */
export const ZRegistrationMetadata = z
  .looseObject({
    software_id: z.string().describe("one of the software ids the parent client admits (required)"),
    software_version: z.string().max(64).optional(),
    client_name: z.string().max(200).optional().describe("shown on the sign-in page and in the user's apps; default: the parent's name"),
    token_endpoint_auth_method: z
      .enum(["none", "client_secret_basic", "client_secret_post"])
      .optional()
      .describe("none: a public instance (PKCE); otherwise a secret is issued once (default client_secret_basic, RFC 7591 §2)"),
    redirect_uris: z.array(z.string()).optional().describe("each must be one of the parent's; the parent's are registered"),
    grant_types: z.array(z.string()).optional().describe("authorization_code, refresh_token, as far as the parent has them"),
    response_types: z.array(z.string()).optional().describe("code"),
    scope: z.string().optional().describe("space-separated; within openid, profile, email, phone, offline_access and the parent's user scopes"),
  })
  .meta({ id: "DynamicClientRegistrationRequest" });
export type TRegistrationMetadata = z.infer<typeof ZRegistrationMetadata>;

/** RFC 7591 §3.2.1: what was registered, with the secret (the only time it exists outside its hash). */
export const ZRegistrationResponse = z
  .object({
    client_id: z.string(),
    client_secret: z.string().optional().describe("confidential instances only; shown once, stored hashed"),
    client_id_issued_at: z.number().int(),
    client_secret_expires_at: z.literal(0).optional().describe("with a secret: 0, it does not expire"),
    client_name: z.string(),
    token_endpoint_auth_method: z.string(),
    redirect_uris: z.array(z.string()),
    post_logout_redirect_uris: z.array(z.string()),
    grant_types: z.array(z.string()),
    response_types: z.array(z.string()),
    scope: z.string(),
    software_id: z.string(),
    software_version: z.string().optional(),
  })
  .meta({ id: "DynamicClientRegistrationResponse" });
export type TRegistrationResponse = z.infer<typeof ZRegistrationResponse>;
