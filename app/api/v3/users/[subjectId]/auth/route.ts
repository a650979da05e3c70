// GET|POST /api/v3/users/{subjectId}/auth – read and change the account's authentication modes
import { changeAuthModesRoute, readAuthModesRoute } from "@/server/auth-modes/auth-modes.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = readAuthModesRoute;
export const POST = changeAuthModesRoute;
export const { PUT, PATCH, DELETE } = otherMethods(readAuthModesRoute, changeAuthModesRoute);
