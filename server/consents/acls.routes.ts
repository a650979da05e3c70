import { z } from "zod";
import { defineRoute } from "../caller/define-route.ts";
import { ZSubjectItemParams, ZSubjectParams } from "../sessions/user-devices.schemas.ts";
import { ZAcl } from "./acls.schemas.ts";
import { deleteAcl, listAcls } from "./acls.service.ts";

const TAGS = ["Users (v3)"];

export const listAclsRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/users/{subjectId}/acls",
    summary: "Consents the user gave to applications",
    description: "Latest first; `updated` is Unix seconds.",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_usec"], system: ["idp_api_sys_usec"], subjectParam: "subjectId" },
    params: ZSubjectParams,
    response: { status: 200, description: "The user's consents", schema: z.array(ZAcl) },
    errors: ["user.not_found"],
  },
  ({ ctx, params }) => listAcls(ctx, params.subjectId),
);

export const deleteAclRoute = defineRoute(
  {
    method: "DELETE",
    path: "/api/v3/users/{subjectId}/acls/{id}",
    summary: "Revoke a consent",
    description: "The application's refresh tokens for the user, and the access tokens issued with them, are revoked too; its next sign-in asks for consent again.",
    tags: TAGS,
    auth: { kind: "bearer", user: ["idp_api_usec_chg"], system: ["idp_api_sys_usec_chg"], subjectParam: "subjectId" },
    params: ZSubjectItemParams,
    response: { status: 204, description: "Revoked" },
    errors: ["user.not_found", "consent.not_found"],
  },
  async ({ ctx, params }) => {
    await deleteAcl(ctx, params.subjectId, params.id);
  },
);

export const ACL_ROUTES = [listAclsRoute, deleteAclRoute];
