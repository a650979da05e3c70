// GET /api/v3/users/{subjectId}/fedToken/{fedPointType}/{fedPointName} – stored tokens of external accounts
import { readFedTokensRoute } from "@/server/federation/external-auth/fed-tokens.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = readFedTokensRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(readFedTokensRoute);
