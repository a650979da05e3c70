// GET /api/v3/rights/of/{sub} – rights of a user as subject
import { rightsOfUserRoute } from "@/server/rights/rights.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = rightsOfUserRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(rightsOfUserRoute);
