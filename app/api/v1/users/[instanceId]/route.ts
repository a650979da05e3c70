// GET /api/v1/users/{instanceId} – read one account version record (deprecated)
import { getUserV1Route } from "@/server/users/users-v1.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = getUserV1Route;
export const { POST, PUT, PATCH, DELETE } = otherMethods(getUserV1Route);
