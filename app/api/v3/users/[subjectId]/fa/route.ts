// GET /api/v3/users/{subjectId}/fa – external accounts bound to the account
import { otherMethods } from "@/server/http/fallback-routes";
import { listFederatedAccountsRoute } from "@/server/federation/federation.routes";

export const GET = listFederatedAccountsRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(listFederatedAccountsRoute);
