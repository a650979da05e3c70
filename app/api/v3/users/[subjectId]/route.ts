// GET /api/v3/users/{subjectId} – read attributes; POST|DELETE /api/v3/users/{instanceId} – change or delete the account
import { changeUserRoute, deleteUserRoute, getUserRoute } from "@/server/users/users.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = getUserRoute;
export const POST = changeUserRoute;
export const DELETE = deleteUserRoute;
export const { PUT, PATCH } = otherMethods(getUserRoute, changeUserRoute, deleteUserRoute);
