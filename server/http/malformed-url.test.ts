import { responseOf } from "./next-transport.ts";
import { describe, expect, it } from "vitest";
import { familyShapeOf, hasMalformedEscape, refuseMalformedUrl } from "./malformed-url.ts";

describe("hasMalformedEscape", () => {
  it.each(["/api/x%zz", "/api/x%", "/api/x%2", "/x%c0%af", "/x%ff", "/x%e2%82", "/x%ed%a0%80", "/x%f4%90%80%80"])("finds %s malformed", (p) => {
    expect(hasMalformedEscape(p)).toBe(true);
  });

  it.each(["/api/v3/users/x", "/x%00", "/%2e%2e/%2f", "/x%25zz", "/x%e2%82%ac", "/x%C3%A9"])("lets %s through", (p) => {
    expect(hasMalformedEscape(p)).toBe(false);
  });
});

describe("familyShapeOf", () => {
  it("names each endpoint family's shape and leaves pages without one", () => {
    expect(["/api/v3/x", "/admin/api/v3/x", "/reg/api/v3/x", "/oauth/te", "/.well-known/jwks.json", "/console/x", "/api"].map(familyShapeOf)).toEqual([
      "v3",
      "v3",
      "registration",
      "oauth",
      "oauth",
      undefined,
      undefined,
    ]);
  });
});

describe("refuseMalformedUrl", () => {
  const refuse = (path: string) => {
    const answer = refuseMalformedUrl(new Request(`http://idp.test/idp${path}`), path);
    return answer && responseOf(answer);
  };

  it("answers 400 in the family's shape through the error registry", async () => {
    const v3 = refuse("/admin/api/v3/rights/x/%ff")!;
    expect(v3.status).toBe(400);
    expect(v3.headers.get("x-request-id")).toBeTruthy();
    expect(await v3.json()).toMatchObject({ type: "input_error", error: "wrong_values", errors: [{ error: "wrong_value", pos: "" }] });
    expect(await refuse("/oauth/te%ff")!.json()).toMatchObject({ error: "invalid_request" });
    expect(await refuse("/reg/api/v3/users%zz")!.json()).toMatchObject({ errors: [{ field: "" }], context: "" });
  });

  it("answers a page with a plain 400 and lets a well-formed path through", async () => {
    const page = refuse("/console/x%zz")!;
    expect(page.status).toBe(400);
    expect(page.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(refuse("/api/v3/users/x%00")).toBeUndefined();
  });
});
