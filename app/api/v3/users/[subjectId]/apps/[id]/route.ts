// DELETE /api/v3/users/{subjectId}/apps/{id} – signs a device out and forgets it
import { otherMethods } from "@/server/http/fallback-routes";
import { deleteAppRoute } from "@/server/sessions/user-devices.routes";

export const DELETE = deleteAppRoute;
export const { GET, POST, PUT, PATCH } = otherMethods(deleteAppRoute);
