import { z } from "zod";
import { defineRoute } from "../caller/define-route.ts";
import { checkReadiness } from "./health.service.ts";
import { Answer } from "../http/exchange.ts";

const ZHealth = z.object({
  status: z.enum(["ok", "unavailable"]),
  reason: z.string().optional(),
  /** Each enabled directory: "degraded" while it does not answer (its people cannot sign in; everyone else can). */
  directories: z.record(z.string(), z.enum(["ok", "degraded"])).optional(),
});

export const liveRoute = defineRoute(
  {
    method: "GET",
    path: "/health/live",
    summary: "Liveness: the process serves requests",
    tags: ["Health"],
    auth: { kind: "none" },
    response: { status: 200, description: "Alive", schema: ZHealth },
    errors: [],
  },
  async () => ({ status: "ok" }),
);

export const readyRoute = defineRoute(
  {
    method: "GET",
    path: "/health/ready",
    summary: "Readiness: the database answers",
    description: "503 with a reason while the database is unreachable. With directories configured, each is listed as ok or degraded (probed at most every 30 s); a degraded directory does not make the service unready.",
    tags: ["Health"],
    auth: { kind: "none" },
    response: { status: 200, description: "Ready", schema: ZHealth },
    errors: ["db.unavailable"],
  },
  async () => {
    const result = await checkReadiness();
    if (result.ready) return result.directories ? { status: "ok", directories: result.directories } : { status: "ok" };
    return Answer.json({ status: "unavailable", reason: result.reason }, 503, { "cache-control": "no-store" });
  },
);
