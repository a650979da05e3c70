import { z } from "zod";
import { defineRoute } from "../caller/define-route.ts";
import { readAudit } from "./audit-read.service.ts";
import { ZAuditPage, ZAuditQuery } from "./audit.schemas.ts";

export const auditRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/users/{subjectId}/audit",
    summary: "The account's security events",
    description:
      "Newest first, filterable by time range and type, a page at a time (`nextCursor`). Each event names its client, and the IP and User-Agent " +
      "the calling application passed in user mode.",
    tags: ["Users (v3)"],
    auth: { kind: "bearer", user: ["idp_api_uaud"], system: ["idp_api_sys_uaud"], subjectParam: "subjectId" },
    params: z.object({ subjectId: z.string().min(1).max(256) }),
    query: ZAuditQuery,
    response: { status: 200, description: "A page of events", schema: ZAuditPage },
    errors: ["user.not_found"],
  },
  ({ ctx, params, query }) => readAudit(ctx, params.subjectId, query),
);
