// DELETE /api/v3/users/{subjectId}/acls/{id} – revokes a consent and the application's tokens
import { deleteAclRoute } from "@/server/consents/acls.routes";
import { otherMethods } from "@/server/http/fallback-routes";

export const DELETE = deleteAclRoute;
export const { GET, POST, PUT, PATCH } = otherMethods(deleteAclRoute);
