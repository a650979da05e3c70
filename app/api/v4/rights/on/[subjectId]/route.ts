// GET /api/v4/rights/on/{subjectId} – rights on a user with tags and subject types, paginated
import { rightsOnV4Route } from "@/server/rights/rights.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = rightsOnV4Route;
export const { POST, PUT, PATCH, DELETE } = otherMethods(rightsOnV4Route);
