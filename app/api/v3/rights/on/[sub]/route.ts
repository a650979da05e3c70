// GET /api/v3/rights/on/{sub} – rights on a user
import { rightsOnUserRoute } from "@/server/rights/rights.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = rightsOnUserRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(rightsOnUserRoute);
