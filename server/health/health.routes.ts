import { z } from "zod";
import { defineRoute } from "../caller/define-route.ts";
import { checkReadiness } from "./health.service.ts";
import { Answer } from "../http/exchange.ts";

const ZHealth = z.object({ status: z.enum(["ok", "unavailable"]), reason: z.string().optional() });

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
    description: "503 with a reason while the database is unreachable.",
    tags: ["Health"],
    auth: { kind: "none" },
    response: { status: 200, description: "Ready", schema: ZHealth },
    errors: ["db.unavailable"],
  },
  async () => {
    const result = await checkReadiness();
    if (result.ready) return { status: "ok" };
    return Answer.json({ status: "unavailable", reason: result.reason }, 503, { "cache-control": "no-store" });
  },
);
