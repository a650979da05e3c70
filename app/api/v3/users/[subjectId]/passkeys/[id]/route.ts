// DELETE /api/v3/users/{subjectId}/passkeys/{id} – remove a passkey
import { otherMethods } from "@/server/http/fallback-routes";
import { deletePasskeyRoute } from "@/server/passkeys/passkeys.routes";

export const DELETE = deletePasskeyRoute;
export const { GET, POST, PUT, PATCH } = otherMethods(deletePasskeyRoute);
