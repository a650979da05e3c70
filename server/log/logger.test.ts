import { afterEach, describe, expect, it, vi } from "vitest";
import { logLine } from "./line-writer.mjs";
import { flushLog, log, logRequest, type TRequestLine } from "./logger.ts";

afterEach(() => {
  flushLog();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** Every write to stdout and stderr, in order, with its stream. */
function capture(): { stream: string; text: string }[] {
  flushLog();
  const writes: { stream: string; text: string }[] = [];
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (writes.push({ stream: "out", text: String(chunk) }), true));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (writes.push({ stream: "err", text: String(chunk) }), true));
  return writes;
}

describe("log lines", () => {
  it("of a turn go out together at its end, one write per stream", async () => {
    vi.stubEnv("IDP_LOG_LEVEL", "info");
    const writes = capture();
    log.info("first", { n: 1 });
    log.info("second", { n: 2 });
    log.warn("careful");
    expect(writes).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(writes.map((w) => w.stream)).toEqual(["out", "err"]);
    expect(writes[0]!.text.split("\n").filter(Boolean).map((l) => JSON.parse(l).msg)).toEqual(["first", "second"]);
    expect(JSON.parse(writes[1]!.text)).toMatchObject({ level: "warn", msg: "careful" });
  });

  it("of the server's own files (server/serve/*.mjs) share the logger's shape, threshold and buffer", async () => {
    vi.stubEnv("IDP_LOG_LEVEL", "info");
    const writes = capture();
    logLine("info", "listening", { port: 3000 });
    log.info("request", { n: 1 });
    logLine("debug", "not written");
    await new Promise((r) => setImmediate(r));
    expect(writes).toHaveLength(1);
    const [a, b] = writes[0]!.text.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(Object.keys(a!)).toEqual(["time", "level", "msg", "port"]);
    expect(a).toMatchObject({ level: "info", msg: "listening", port: 3000 });
    expect(Object.keys(b!).slice(0, 3)).toEqual(["time", "level", "msg"]);
  });

  it("go out at once with an error line, the lines before it first, so a crash after it cannot keep them back", () => {
    vi.stubEnv("IDP_LOG_LEVEL", "info");
    const writes = capture();
    log.info("before", {});
    log.error("broke", { password: "hunter2" });
    expect(writes.map((w) => [w.stream, JSON.parse(w.text).msg])).toEqual([["out", "before"], ["err", "broke"]]);
    expect(writes[1]!.text).not.toContain("hunter2");
  });
});

describe("the request line", () => {
  it("is the line log.info(\"request\", fields) writes, byte for byte, whatever the values hold", () => {
    vi.stubEnv("IDP_LOG_LEVEL", "info");
    vi.useFakeTimers({ toFake: ["Date"] });
    const lines: TRequestLine[] = [
      { requestId: "r-1", method: "GET", path: "/health/live", status: 200, ms: 0.4 },
      { requestId: "r-2", method: "GET", path: "/api/v3/users/u1/auth", status: 200, ms: 12, client: "app" },
      { requestId: "r-3", method: "POST", path: '/a"b\\c\u0001ü€😀\ud800', status: 401, ms: 1234.5, client: 'q"uote', sub: "user\n1" },
      { requestId: "r-4", method: "DELETE", path: "/x", status: 500, ms: Number.NaN, sub: "only-sub" },
      { requestId: "r-5", method: "GET", path: "/x", status: 204, ms: -0 },
    ];
    for (const [i, line] of lines.entries()) {
      vi.setSystemTime(Date.UTC(2026, 10, 23, 8, 30, i, 5 * i));
      const writes = capture();
      logRequest(line);
      log.info("request", { ...line });
      flushLog();
      const [ours, general] = writes.map((w) => w.text).join("").split("\n");
      expect(ours, line.requestId).toBe(general);
      expect(JSON.parse(ours!).time).toBe(new Date(Date.UTC(2026, 10, 23, 8, 30, i, 5 * i)).toISOString());
    }
  });

  it("is left out below the info level", () => {
    vi.stubEnv("IDP_LOG_LEVEL", "warn");
    const writes = capture();
    logRequest({ requestId: "r", method: "GET", path: "/", status: 200, ms: 1 });
    flushLog();
    expect(writes).toEqual([]);
  });
});
