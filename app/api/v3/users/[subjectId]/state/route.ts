// GET|POST /api/v3/users/{subjectId}/state – read the account's state, or make it untouchable
import { setAccountStateRoute, getAccountStateRoute } from "@/server/account-state/account-state.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = getAccountStateRoute;
export const POST = setAccountStateRoute;
export const { PUT, PATCH, DELETE } = otherMethods(getAccountStateRoute, setAccountStateRoute);
