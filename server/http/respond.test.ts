import { afterEach, describe, expect, it, vi } from "vitest";
import { flushLog } from "../log/logger.ts";
import { finish, MAX_LOGGED_CHARS } from "./respond.ts";

/** The JSON log line finish() writes for `req`. */
function loggedLine(req: Request, clientId?: string): Record<string, unknown> {
  const path = new URL(req.url).pathname;
  vi.stubEnv("IDP_LOG_LEVEL", "info");
  const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  finish({ status: 404, headers: {}, body: null }, req, { requestId: "req-12345678", actor: { mode: "anonymous" }, clientId }, undefined, performance.now(), path);
  flushLog();
  const line = String(write.mock.calls.at(-1)?.[0]);
  return JSON.parse(line);
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe("the request log line", () => {
  it("cuts a 3,000-character path and says it was cut", () => {
    const path = `/api/v3/users/${"a".repeat(3000)}`;
    const line = loggedLine(new Request(`http://idp.test${path}`));
    expect(line.path).toBe(`${path.slice(0, MAX_LOGGED_CHARS)}…[cut, ${path.length} chars]`);
    expect(JSON.stringify(line).length).toBeLessThan(600);
  });

  it("keeps a path of ordinary length whole", () => {
    const line = loggedLine(new Request("http://idp.test/api/v3/users/x%zz"));
    expect(line).toMatchObject({ msg: "request", method: "GET", path: "/api/v3/users/x%zz", status: 404, requestId: "req-12345678" });
  });

  it("cuts a request-derived client id as well", () => {
    const line = loggedLine(new Request("http://idp.test/oauth/te", { method: "POST" }), "c".repeat(1000));
    expect(line.client).toBe(`${"c".repeat(MAX_LOGGED_CHARS)}…[cut, 1000 chars]`);
  });
});
