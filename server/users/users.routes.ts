import { STEP_UP_ERRORS } from "../auth-modes/recent-auth.ts";
import { z } from "zod";
import { confirmContactRoute } from "../contacts/contacts.routes.ts";
import { defineRoute } from "../caller/define-route.ts";
import { localeOf } from "../http/locale.ts";
import { ZChangeUserV3, ZUserV3 } from "./api/v3.ts";
import { changeUserV3, deleteUserV3, userV3Answer } from "./user-attributes.service.ts";

const TAGS = ["Users (v3)"];
const ZSubjectParams = z.object({ subjectId: z.string().min(1).max(256).describe("account id (sub), or `current` in user mode") });
const ZInstanceParams = z.object({ instanceId: z.string().min(1).max(1024).describe("meta.instanceId of the last read") });
// Next allows one folder name per level: the app/ folder is [subjectId] for all three.
const INSTANCE_FOLDER = { subjectId: "instanceId" };

export const getUserRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/users/{subjectId}",
    summary: "Read the attributes of an account",
    description: "Attributes outside the client's selection for the scope are absent. `notes` lists contact changes awaiting a code.",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_user"], system: ["idp_api_sys_users"], subjectParam: "subjectId" },
    params: ZSubjectParams,
    response: { status: 200, description: "Attributes and meta", schema: ZUserV3 },
    errors: ["user.not_found"],
  },
  // An answer without pending changes is one shared object per account and view: its JSON is made once too.
  ({ ctx, params }) => userV3Answer(ctx, params.subjectId),
);

export const changeUserRoute = defineRoute(
  {
    method: "POST",
    path: "/api/v3/users/{instanceId}",
    summary: "Change attributes of an account",
    description:
      "Send only the attributes to change; `null` removes one. Phone and e-mail are {value, vrf}: vrf=true stores the contact as confirmed, " +
      "vrf=false leaves it unchanged and sends a code to the new contact (see notes.actions and the validate operations). " +
      "An instanceId that is no longer current is refused with 409 and nothing changes: of two changes from the same version exactly one succeeds. " +
      "In user mode a change of a phone or e-mail needs a recent sign-in (403 reauthentication_required / second_factor_required): codes and reset passwords go there.",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_user_chg"], system: ["idp_api_sys_users_chg"] },
    params: ZInstanceParams,
    paramNames: INSTANCE_FOLDER,
    body: ZChangeUserV3,
    response: { status: 200, description: "The account after the change", schema: ZUserV3 },
    errors: ["user.not_found", "user.stale_instance", "auth.wrong_subject", "console.last_admin", ...STEP_UP_ERRORS],
  },
  ({ ctx, params, body, request }) => changeUserV3(ctx, params.instanceId, body, localeOf(request)),
);

export const deleteUserRoute = defineRoute(
  {
    method: "DELETE",
    path: "/api/v3/users/{instanceId}",
    summary: "Delete an account and everything that belongs to it",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_user_chg"], system: ["idp_api_sys_users_chg"] },
    params: ZInstanceParams,
    paramNames: INSTANCE_FOLDER,
    response: { status: 204, description: "Deleted" },
    errors: ["user.not_found", "user.stale_instance", "auth.wrong_subject", "console.last_admin"],
  },
  async ({ ctx, params }) => {
    await deleteUserV3(ctx, params.instanceId);
  },
);

export const USER_ROUTES = [getUserRoute, changeUserRoute, deleteUserRoute, confirmContactRoute("phone"), confirmContactRoute("email")];
