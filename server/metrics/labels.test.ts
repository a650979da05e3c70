import { describe, expect, it } from "vitest";
import { boundedLabel, operationLabel, statusClass } from "./labels.ts";

describe("metric labels", () => {
  it("names an operation by method and path template, never by the raw path", () => {
    expect(operationLabel({ method: "GET", path: "/api/v3/users/{subjectId}" })).toBe("GET /api/v3/users/{subjectId}");
    expect(operationLabel(undefined)).toBe("other");
  });

  it.each([
    [200, "2xx"],
    [204, "2xx"],
    [304, "3xx"],
    [401, "4xx"],
    [503, "5xx"],
    [99, "other"],
    [600, "other"],
  ])("puts status %i in class %s", (status, cls) => {
    expect(statusClass(status)).toBe(cls);
  });

  it("keeps plain words and turns anything else into other", () => {
    const label = boundedLabel();
    expect(label("bad_password")).toBe("bad_password");
    expect(label("client_credentials")).toBe("client_credentials");
    expect(label("pwd+otp")).toBe("pwd+otp");
    for (const v of ["Bad", "a b", "user@example.com", "6f1c2a9e-1d2b-4c1a-9a1e-0c2b3d4e5f60", "", "x".repeat(41), "pwd+", "+otp", 42, undefined, null]) {
      expect(label(v)).toBe("other");
    }
  });

  it("stops admitting new values after its limit, keeping the ones it has", () => {
    const label = boundedLabel(2);
    expect([label("one"), label("two"), label("three"), label("one")]).toEqual(["one", "two", "other", "one"]);
  });
});
