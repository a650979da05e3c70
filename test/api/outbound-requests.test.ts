import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { consoleSignIn, trpcCall } from "../support/console.ts";
import { startExternalProvider, type TExternalProvider } from "../support/external-provider.ts";
import { base } from "../support/http.ts";
import { serverOfItsOwn } from "../support/own-server.ts";

/*
 * URLs an administrator types (an external provider's discovery, token, userinfo and key endpoints)
 * must not reach the service's own network: loopback, private ranges, the cloud metadata address.
 * A real OpenID provider listens on loopback; a server of its own has no IDP_OUTBOUND_ALLOW and
 * refuses it, by address and after DNS; the suite's server allows loopback and reaches it.
 */

describe("outbound requests to administrator-typed URLs", () => {
  const guarded = serverOfItsOwn("outbound", { IDP_OUTBOUND_ALLOW: "" });
  let provider: TExternalProvider;
  let cookie: string;

  beforeAll(async () => {
    provider = await startExternalProvider();
    cookie = await consoleSignIn(guarded().baseUrl, "admin", "outbound-admin-password");
  });
  afterAll(() => provider?.close());

  const discover = async (baseUrl: string, session: string, discoveryUrl: string) =>
    (await trpcCall(baseUrl, session, "console.providers.testDiscovery", { discoveryUrl }, "mutation")).body.result?.data as { ok: boolean; error?: string };

  it("refuses a provider on a loopback address, and one whose name resolves to loopback", async () => {
    const byAddress = await discover(guarded().baseUrl, cookie, provider.issuer);
    expect(byAddress).toMatchObject({ ok: false, error: expect.stringMatching(/^refused: 127\.0\.0\.1 is a private, loopback or link-local address/) });

    const byName = await discover(guarded().baseUrl, cookie, provider.issuer.replace("127.0.0.1", "localhost"));
    expect(byName).toMatchObject({ ok: false, error: expect.stringMatching(/^refused: localhost resolves only to .* private, loopback or link-local/) });
  });

  it("refuses the link-local metadata address and private ranges before sending anything", async () => {
    for (const url of ["https://169.254.169.254/latest", "https://10.1.2.3/", "https://[fd00::1]/", "https://[::ffff:127.0.0.1]/"]) {
      expect(await discover(guarded().baseUrl, cookie, url), url).toMatchObject({ ok: false, error: expect.stringMatching(/^refused: /) });
    }
  });

  it("reaches the same provider where IDP_OUTBOUND_ALLOW names loopback (the suite's server)", async () => {
    const session = await consoleSignIn(base(), "admin", inject("adminPassword"));
    expect(await discover(base(), session, provider.issuer)).toMatchObject({ ok: true });
  });
});
