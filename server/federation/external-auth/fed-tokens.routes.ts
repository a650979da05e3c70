import { z } from "zod";
import { defineRoute } from "../../caller/define-route.ts";
import { ZFpName, ZFpType } from "../federation.schemas.ts";
import { readFedTokens } from "./fed-tokens.service.ts";

const ZFedTokens = z
  .record(z.string(), z.object({ token: z.string().describe("the provider's access token"), expiresOn: z.number().int().nullable().describe("Unix time; null when the provider gave no (or no believable) expiry") }))
  .meta({ id: "FedTokens" });

// GET /api/v3/users/{subjectId}/fedToken/{fedPointType}/{fedPointName} – stored tokens of the user's external accounts
export const readFedTokensRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/users/{subjectId}/fedToken/{fedPointType}/{fedPointName}",
    summary: "Stored access tokens of the user's accounts at an external provider",
    description:
      "System mode: scope fed_tkn_any or fed_tkn_{fedPointType}_{fedPointName}, held by the token and still allowed to the application; " +
      "a scope of another provider is 401 bad_access_token. 200 is keyed by sid (every bound account of that provider with a token). " +
      "A token whose remaining life is below the provider's minTokenLifeS is refreshed with the stored refresh token first (the new tokens " +
      "are stored; a refresh token the provider does not rotate is kept); parallel reads of one stale token refresh it once, across " +
      "processes too. 404 token_not_found: the provider does not remember tokens, none is stored, or a stale one without refresh token " +
      "has expired; also when the provider refused the refresh (revoked): the stored token is dropped, desc says so and the event user.fa_token_dropped is recorded. 502 fp_unavailable " +
      "(internal_error with requestId) when the provider cannot be reached: the stored token is kept for a later try.",
    tags: ["External providers (v3)"],
    auth: { kind: "bearer", system: ["fed_tkn_any", "fed_tkn_{fedPointType}_{fedPointName}"] },
    params: z.object({ subjectId: z.string().min(1).max(256).describe("account id (sub)"), fedPointType: ZFpType, fedPointName: ZFpName }),
    response: { status: 200, description: "Tokens by sid", schema: ZFedTokens },
    errors: ["user.not_found", "federation.provider_not_found", "federation.token_not_found", "federation.token_refresh_refused", "federation.provider_unavailable"],
  },
  ({ ctx, params }) => readFedTokens(ctx, params.subjectId, { fpType: params.fedPointType, fpName: params.fedPointName }),
);
