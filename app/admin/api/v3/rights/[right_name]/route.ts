// GET|PUT|DELETE /admin/api/v3/rights/{right_name} – read, create or replace, delete a right definition
import { deleteDefinitionRoute, getDefinitionRoute, putDefinitionRoute } from "@/server/rights/rights.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = getDefinitionRoute;
export const PUT = putDefinitionRoute;
export const DELETE = deleteDefinitionRoute;
export const { POST, PATCH } = otherMethods(getDefinitionRoute, putDefinitionRoute, deleteDefinitionRoute);
