import { z } from "zod";
import { defineRoute } from "../caller/define-route.ts";
import { ZSubjectItemParams, ZSubjectParams, ZUserApp } from "./user-devices.schemas.ts";
import { deleteUserApp, listUserApps, resetSessions } from "./user-devices.service.ts";

const TAGS = ["Users (v3)"];
// Next allows one folder name per level: the app/ folder is [subjectId] for the instance id too.
const INSTANCE_FOLDER = { subjectId: "instanceId" };
const DEVICE_HEADER = "idp-ci-ua-id";

export const resetSessionsRoute = defineRoute(
  {
    method: "POST",
    path: "/api/v3/users/{instanceId}/sessions/reset",
    summary: "End every session of the user and invalidate their tokens",
    description:
      "Ends all browser sessions of the user; every access and refresh token issued before fails at once with 401 (introspection: `active: false`) " +
      "on every instance. With the header `IDP-CI-UA-ID: <device id>` (an id of GET …/apps) that device keeps its sessions and their tokens.",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_usec_chg"], system: ["idp_api_sys_usec_chg"] },
    params: z.object({ instanceId: z.string().min(1).max(1024).describe("meta.instanceId of the last read") }),
    paramNames: INSTANCE_FOLDER,
    response: { status: 204, description: "Sessions ended, tokens invalidated" },
    errors: ["user.not_found", "user.stale_instance", "auth.wrong_subject"],
  },
  async ({ ctx, params, request }) => {
    const device = request.headers.get(DEVICE_HEADER)?.trim().slice(0, 256) || undefined;
    await resetSessions(ctx, params.instanceId, device);
  },
);

export const listAppsRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/users/{subjectId}/apps",
    summary: "Devices and browsers the user signed in from, and the user's mobile application instances",
    description:
      "Latest first. Times are Unix seconds; `name` is parsed from the User-Agent. Installations of mobile applications registered at " +
      "POST /oauth/register and bound to the user (by a sign-in through them or bindDynClient) are listed with kind `app_instance`, " +
      "their `clientId`, `parentClientId`, `softwareId` and `softwareVersion`.",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_uapps"], system: ["idp_api_sys_uapps"], subjectParam: "subjectId" },
    params: ZSubjectParams,
    response: { status: 200, description: "The user's devices", schema: z.array(ZUserApp) },
    errors: ["user.not_found"],
  },
  ({ ctx, params }) => listUserApps(ctx, params.subjectId),
);

export const deleteAppRoute = defineRoute(
  {
    method: "DELETE",
    path: "/api/v3/users/{subjectId}/apps/{id}",
    summary: "Sign a device out and forget it, or remove an app instance",
    description:
      "Ends the device's sessions; the access and refresh tokens issued to them fail at once on every instance. An `app_instance` is " +
      "deleted as a client: its refresh tokens go, its access tokens answer 401 (introspection: `active: false`), and its client_id " +
      "no longer authenticates (the installation registers again).",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_uapps_chg"], system: ["idp_api_sys_uapps_chg"], subjectParam: "subjectId" },
    params: ZSubjectItemParams,
    response: { status: 204, description: "Signed out and forgotten" },
    errors: ["user.not_found", "device.not_found"],
  },
  async ({ ctx, params }) => {
    await deleteUserApp(ctx, params.subjectId, params.id);
  },
);

export const USER_DEVICE_ROUTES = [resetSessionsRoute, listAppsRoute, deleteAppRoute];
