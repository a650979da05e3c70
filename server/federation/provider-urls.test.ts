import { describe, expect, it } from "vitest";
import { providerUrlProblem } from "./provider-urls.ts";

describe("where a provider may live", () => {
  it("accepts https anywhere and http on loopback only", () => {
    for (const ok of ["https://idp.example.test", "http://127.0.0.1:4000", "http://127.8.9.10/x", "http://localhost:3000", "http://[::1]:8080/"]) {
      expect(providerUrlProblem(ok), ok).toBeUndefined();
    }
    for (const bad of ["http://idp.example.test", "http://10.0.0.1", "http://127.0.0.1.example.test", "http://[::2]/", "ftp://127.0.0.1/", "javascript:alert(1)"]) {
      expect(providerUrlProblem(bad), bad).toBe("https is required (http only on a loopback address)");
    }
    expect(providerUrlProblem("not a url")).toBe("not a URL");
  });
});
