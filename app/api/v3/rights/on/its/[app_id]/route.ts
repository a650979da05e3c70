// GET /api/v3/rights/on/its/{app_id} – rights on an application
import { rightsOnAppRoute } from "@/server/rights/rights.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = rightsOnAppRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(rightsOnAppRoute);
