import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBodyText } from "../http/parse.ts";
import { REQUEST_TARGET } from "../http/server-handoff.mjs";
import { stringResponse } from "../http/string-response.ts";
import { readWholeBody, sendWebResponse, toWebRequest, wholeBodyLength } from "./node-web.mjs";

// The fast path's Request over real HTTP: a node:http server turns each request into the Request a
// handler gets (toWebRequest, with the body read whole first when it is small, as fast-path.mjs does)
// and lets the test's handler answer it.

type THandler = (req: Request) => Promise<Response>;
let handler: THandler = async () => new Response(null, { status: 204 });
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const at = { path: req.url!.split("?")[0]!, search: req.url!.includes("?") ? req.url!.slice(req.url!.indexOf("?")) : "", hostname: "idp.test", port: 3000 };
  const whole = wholeBodyLength(req) === undefined ? Promise.resolve(undefined) : readWholeBody(req);
  void whole.then((body) => handler(toWebRequest(req, at, body))).then((response) => sendWebResponse(res, response, req.method));
});
let port = 0;
beforeAll(() => new Promise<void>((r) => server.listen(0, "127.0.0.1", () => ((port = (server.address() as AddressInfo).port), r()))));
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** Sends a request; `chunked` sends the body without Content-Length. */
function send(method: string, path: string, body?: string, chunked = false): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "content-type": "text/plain", "x-custom": "a" };
    if (body !== undefined && !chunked) headers["content-length"] = String(Buffer.byteLength(body));
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, text }));
    });
    req.on("error", reject);
    if (chunked && body !== undefined) {
      req.write(body.slice(0, 3));
      setTimeout(() => req.end(body.slice(3)), 20);
    } else req.end(body);
  });
}

describe("toWebRequest: the fast path's Request", () => {
  it("is a Request with the method, URL and headers a handler reads, forwarded headers filled in", async () => {
    handler = async (req) => {
      expect(req).toBeInstanceOf(Request);
      return Response.json({ method: req.method, url: req.url, custom: req.headers.get("x-custom"), proto: req.headers.get("x-forwarded-proto"), forwardedFor: req.headers.get("x-forwarded-for") });
    };
    const r = await send("GET", "/api/v3/users/x?fields=a");
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ method: "GET", url: "http://idp.test:3000/api/v3/users/x?fields=a", custom: "a", proto: "http", forwardedFor: "127.0.0.1" });
    // Serialized as undici's Request serializes it.
    const odd = await send("GET", "/a{b}/%zz?q='x'|^");
    expect(JSON.parse(odd.text).url).toBe(new Request("http://idp.test:3000/a{b}/%zz?q='x'|^").url);
    expect(JSON.parse(odd.text).url).toBe("http://idp.test:3000/a%7Bb%7D/%zz?q=%27x%27|^");
  });

  it("hands over the path and query of a URL that parsing leaves as it is, as URL gives them", async () => {
    handler = async (req) => {
      const { pathname, search } = new URL(req.url);
      return Response.json({ target: (req as Request & { [REQUEST_TARGET]?: unknown })[REQUEST_TARGET] ?? null, parsed: { pathname, search } });
    };
    for (const p of ["/api/v3/users/x?fields=a,b&x=%20", "/api/v3/rights/of/its/app-1", "/a?", "/a:b@c/~x$"]) {
      const r = JSON.parse((await send("GET", p)).text);
      expect(r.target, p).toEqual(r.parsed);
    }
    // Characters that parsing encodes: the handler parses the URL itself.
    for (const p of ["/a{b}/%zz", "/a?q='x'", "/a`b"]) expect(JSON.parse((await send("GET", p)).text).target, p).toBeNull();
  });

  it("answers get() and has() as undici's Headers built from the same request does, and is one where more is asked", async () => {
    const names = ["X-Dup", "x-dup", "set-cookie", "cookie", "x-blank", "x-tab", "authorization", "Host", "missing", "constructor", "__proto__", "x-forwarded-for", "x-obs"];
    handler = async (req) => {
      const h = req.headers;
      const light = names.map((n) => [h.get(n), h.has(n)]);
      let invalid = "";
      try {
        h.get("bad name");
      } catch (e) {
        invalid = (e as Error).name;
      }
      const entries = [...h]; // builds undici's Headers, which answers from now on
      const real = names.map((n) => [h.get(n), h.has(n)]);
      h.set("x-late", "1");
      const copied = new Headers(h);
      const viaRequest = new Request("http://x/", { headers: h });
      return Response.json({ light, real, invalid, entries, isHeaders: h instanceof Headers, late: [h.get("x-late"), copied.get("x-late"), viaRequest.headers.get("x-dup")], cookies: h.getSetCookie() });
    };
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.write(
          "GET /h HTTP/1.1\r\nHost: idp.test\r\nX-Dup: a\r\nx-dup: b\r\nSet-Cookie: s=1\r\nSet-Cookie: t=2\r\nCookie: c=1\r\nCookie: d=2\r\n" +
            "X-Blank:   padded   \r\nX-Tab:\tt\t\r\nAuthorization: Bearer abc.def\r\nAuthorization: Bearer second\r\nX-Obs: \xe4\r\nConnection: close\r\n\r\n",
          "latin1",
        );
      });
      let text = "";
      socket.on("data", (d) => (text += d.toString("utf8")));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    const r = JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4).replace(/^[0-9a-f]+\r\n/, "").replace(/\r\n0\r\n\r\n$/, ""));
    expect(r.light).toEqual(r.real);
    expect(Object.fromEntries(names.map((n, i) => [n, r.light[i][0]]))).toMatchObject({ "X-Dup": "a, b", cookie: "c=1; d=2", "x-blank": "padded", "x-tab": "t", authorization: "Bearer abc.def", missing: null, constructor: null, "x-forwarded-for": "127.0.0.1" });
    expect(r.invalid).toBe("TypeError");
    expect(r.isHeaders).toBe(true);
    expect(r.entries).toContainEqual(["x-dup", "a, b"]);
    expect(r.late).toEqual(["1", "1", "a, b"]);
    expect(r.cookies).toEqual(["s=1", "t=2"]);
  });

  it("hands a small body to parse.ts whole, and to text() and clone() as a Request would", async () => {
    handler = async (req) => Response.json({ parsed: await readBodyText(req), viaClone: await req.clone().text() });
    expect(JSON.parse((await send("POST", "/t", "grant_type=x&ü=1")).text)).toEqual({ parsed: "grant_type=x&ü=1", viaClone: "grant_type=x&ü=1" });
    handler = async (req) => Response.json({ text: await req.text(), used: req.bodyUsed, aborted: req.signal.aborted, inspected: inspect(req).startsWith("Request {") });
    expect(JSON.parse((await send("PUT", "/t", "abc")).text)).toEqual({ text: "abc", used: true, aborted: false, inspected: true });
  });

  it("keeps a chunked body a stream that parse.ts and text() read to its end", async () => {
    handler = async (req) => Response.json({ parsed: await readBodyText(req) });
    expect(JSON.parse((await send("POST", "/t", "streamed body", true)).text)).toEqual({ parsed: "streamed body" });
    handler = async (req) => new Response(await req.text());
    expect((await send("PATCH", "/t", "streamed text", true)).text).toBe("streamed text");
  });

  it("reads a body only when its length is declared and at most 64 KiB", () => {
    const msg = (method: string, headers: Record<string, string>) => ({ method, headers }) as unknown as IncomingMessage;
    expect(wholeBodyLength(msg("POST", { "content-length": "65536" }))).toBe(65536);
    expect(wholeBodyLength(msg("POST", { "content-length": "65537" }))).toBeUndefined();
    expect(wholeBodyLength(msg("POST", { "content-length": "0" }))).toBe(0);
    expect(wholeBodyLength(msg("POST", { "content-length": "12", "transfer-encoding": "chunked" }))).toBeUndefined();
    expect(wholeBodyLength(msg("POST", {}))).toBeUndefined();
    expect(wholeBodyLength(msg("GET", { "content-length": "5" }))).toBeUndefined();
    expect(wholeBodyLength(msg("DELETE", { "content-length": "1e3" }))).toBeUndefined();
  });
});

describe("sendWebResponse: the answer", () => {
  it("writes a string body whole with its length, and a streamed body chunked, both as the handler made them", async () => {
    handler = async () => stringResponse(JSON.stringify({ a: "ä" }), { status: 201, headers: { "content-type": "application/json", "x-k": "v" } });
    const whole = await fetch(`http://127.0.0.1:${port}/s`);
    expect([whole.status, whole.headers.get("content-length"), whole.headers.get("transfer-encoding"), whole.headers.get("x-k"), await whole.text()]).toEqual([201, "10", null, "v", '{"a":"ä"}']);
    handler = async () => stringResponse(null, { status: 204, headers: { "x-k": "w" } });
    const none = await fetch(`http://127.0.0.1:${port}/s`);
    expect([none.status, none.headers.get("x-k"), await none.text()]).toEqual([204, "w", ""]);
    // Once something read the body as a stream, the stream is what goes out.
    handler = async () => {
      const r = stringResponse("streamed");
      r.clone();
      return r;
    };
    const streamed = await fetch(`http://127.0.0.1:${port}/s`);
    expect([streamed.headers.get("transfer-encoding"), await streamed.text()]).toEqual(["chunked", "streamed"]);
  });
});
