// GET /api/v1/users?query={attr}={value} – search accounts; POST /api/v1/users – change one (deprecated)
import { changeUserV1Route, searchUsersV1Route } from "@/server/users/users-v1.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = searchUsersV1Route;
export const POST = changeUserV1Route;
export const { PUT, PATCH, DELETE } = otherMethods(searchUsersV1Route, changeUserV1Route);
