// GET /api/v3/users/{subjectId}/acls – the consents the user gave to applications
import { listAclsRoute } from "@/server/consents/acls.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = listAclsRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(listAclsRoute);
