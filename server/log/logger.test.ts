import { afterEach, describe, expect, it, vi } from "vitest";
import { flushLog, log } from "./logger.ts";

afterEach(() => {
  flushLog();
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

  it("go out at once with an error line, the lines before it first, so a crash after it cannot keep them back", () => {
    vi.stubEnv("IDP_LOG_LEVEL", "info");
    const writes = capture();
    log.info("before", {});
    log.error("broke", { password: "hunter2" });
    expect(writes.map((w) => [w.stream, JSON.parse(w.text).msg])).toEqual([["out", "before"], ["err", "broke"]]);
    expect(writes[1]!.text).not.toContain("hunter2");
  });
});
