// GET /api/v3/users/{subjectId}/passkeys – the account's passkeys
import { otherMethods } from "@/server/http/fallback-routes";
import { listPasskeysRoute } from "@/server/passkeys/passkeys.routes";

export const GET = listPasskeysRoute;
export const { POST, PUT, PATCH, DELETE } = otherMethods(listPasskeysRoute);
