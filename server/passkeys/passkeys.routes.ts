import { z } from "zod";
import { STEP_UP_ERRORS } from "../auth-modes/recent-auth.ts";
import { defineRoute } from "../caller/define-route.ts";
import { ZSubjectItemParams, ZSubjectParams } from "../sessions/user-devices.schemas.ts";
import { deletePasskeyOfSubject, listPasskeysOfSubject } from "./passkeys-api.service.ts";
import { ZPasskeyView } from "./passkeys.schemas.ts";

// In the style of the one-time-password operations: the same scopes read and remove them.
const TAGS = ["Passkeys (v3)"];
const READ = { kind: "bearer", user: ["idp_api_usec"], system: ["idp_api_sys_usec"], subjectParam: "subjectId" } as const;
const CHANGE = { kind: "bearer", user: ["idp_api_usec_chg"], system: ["idp_api_sys_usec_chg"], subjectParam: "subjectId" } as const;

export const listPasskeysRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/users/{subjectId}/passkeys",
    summary: "The account's passkeys",
    description: "The account's passkeys (WebAuthn credentials), oldest first; an empty list when it has none. Never a public key.",
    tags: TAGS,
    auth: READ,
    params: ZSubjectParams,
    response: { status: 200, description: "The passkeys", schema: z.array(ZPasskeyView) },
    errors: ["user.not_found"],
  },
  ({ ctx, params }) => listPasskeysOfSubject(ctx, params.subjectId),
);

export const deletePasskeyRoute = defineRoute(
  {
    method: "DELETE",
    path: "/api/v3/users/{subjectId}/passkeys/{id}",
    summary: "Remove a passkey",
    description:
      "Removes one of the account's passkeys (the person is told). With a user token, the sign-in must be recent (step-up). " +
      "The account's last second-factor method (no generator besides it) while requiredFactor is 2: 400 last_sf_method, and nothing changes.",
    tags: TAGS,
    auth: CHANGE,
    params: ZSubjectItemParams,
    response: { status: 204, description: "Removed" },
    errors: ["user.not_found", "passkeys.not_found", "passkeys.last_second_factor", ...STEP_UP_ERRORS],
  },
  async ({ ctx, params }) => {
    await deletePasskeyOfSubject(ctx, params.subjectId, params.id);
  },
);

export const PASSKEY_ROUTES = [listPasskeysRoute, deletePasskeyRoute];
