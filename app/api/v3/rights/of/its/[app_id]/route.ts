// GET /api/v3/rights/of/its/{app_id} – rights of an application as subject
import { rightsOfAppRoute } from "@/server/rights/rights.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = rightsOfAppRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(rightsOfAppRoute);
