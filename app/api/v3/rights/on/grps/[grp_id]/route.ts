// GET /api/v3/rights/on/grps/{grp_id} – rights on a group (objectExt: its profile)
import { rightsOnGroupRoute } from "@/server/rights/rights.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = rightsOnGroupRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(rightsOnGroupRoute);
