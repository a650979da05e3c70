// POST /api/v3/users/notes/validate_mobile/{state} – confirm a pending phone change with its code
import { USER_ROUTES } from "@/server/users/users.routes";
import { otherMethods } from "@/server/http/fallback-routes";

const route = USER_ROUTES.find((r) => r.operation.path === "/api/v3/users/notes/validate_mobile/{state}")!;
export const POST = route;
export const { GET, PUT, PATCH, DELETE } = otherMethods(route);
