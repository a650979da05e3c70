// GET /api/v3/users/{subjectId}/audit – the account's security events, newest first
import { auditRoute } from "@/server/audit/audit.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const GET = auditRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(auditRoute);
