import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "../errors/app-error.ts";
import { type TRouteHandler } from "../http/define-route.ts";
import { defineRoute } from "../caller/define-route.ts";
import { Answer } from "../http/exchange.ts";
import { readForm } from "../http/form.ts";
import { readBodyText } from "../http/parse.ts";
import { htmlResponse } from "../html/layout.ts";
import { pageRoute } from "../html/page-route.ts";
import { apiTransport } from "./api-transport.mjs";

// The two transports over the same core: each case is sent to a real node:http server running the
// node:http transport, and handed as a Web Request to the Next route handler defineRoute made for the
// same operation. What a client sees must be the same (status, headers, body), whichever carried it.

const echo = defineRoute(
  {
    method: "POST",
    path: "/t/echo/{name}",
    summary: "echo",
    tags: ["t"],
    auth: { kind: "none" },
    params: z.object({ name: z.string().max(20) }),
    query: z.object({ q: z.string().optional() }),
    body: z.object({ n: z.number() }).optional(),
    response: { status: 200, description: "echo" },
    errors: ["request.invalid_values"],
  },
  ({ params, query, body, request }) => ({ name: params.name, q: query.q ?? null, n: body?.n ?? null, lang: request.headers.get("Accept-Language") }),
);
const raw = defineRoute(
  { method: "PUT", path: "/t/raw", summary: "raw", tags: ["t"], auth: { kind: "none" }, response: { status: 200, description: "text" }, errors: [], errorShape: "oauth" },
  async ({ request }) => {
    const text = await readBodyText(request);
    if (text === "fail") throw new AppError("oauth.invalid_request", { desc: "asked to fail" });
    if (text === "bug") throw new Error("a bug");
    return new Answer(201, { "set-cookie": ["a=1; Path=/", "b=2; Path=/"], "x-len": String(text.length) }, `got ${text.length}`);
  },
);
const stream = defineRoute(
  { method: "GET", path: "/t/stream", summary: "stream", tags: ["t"], auth: { kind: "none" }, response: { status: 200, description: "rows" }, errors: [] },
  () =>
    new Answer(
      200,
      { "content-type": "text/csv" },
      new ReadableStream<Uint8Array>({
        start(c) {
          for (const row of ["a,b\n", "1,2\n"]) c.enqueue(new TextEncoder().encode(row));
          c.close();
        },
      }),
    ),
);
const empty = defineRoute(
  { method: "DELETE", path: "/t/echo/{name}", summary: "gone", tags: ["t"], auth: { kind: "none" }, deprecated: true, response: { status: 204, description: "gone" }, errors: [] },
  () => undefined,
);
const ROUTES: TRouteHandler[] = [echo, raw, stream, empty];
// A page of the service's own (the sign-in pages are made this way): HTML, its errors as a page.
const page = pageRoute("POST", "/t/page", async (req) => {
  const form = await readForm(req);
  if (form.get("flow") !== "known") throw new AppError("login.flow_not_found");
  return htmlResponse(`<p>${form.get("name") ?? ""}</p>`, 200, { "set-cookie": ["c=1; Path=/; HttpOnly"] });
});

const transport = apiTransport({
  operations: [...ROUTES.map((r) => ({ method: r.operation.method, path: r.operation.path, run: r.run })), { ...page.page, run: page.run }],
  contextPath: "/idp",
  hostname: "idp.test",
  port: 3000,
});
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  if (!transport.handle(req, res)) res.writeHead(599).end("left to next");
});
let port = 0;
beforeAll(() => new Promise<void>((r) => server.listen(0, "127.0.0.1", () => ((port = (server.address() as AddressInfo).port), r()))));
afterAll(() => new Promise<void>((r) => server.close(() => r())));

type TCase = { method: string; path: string; headers?: Record<string, string>; body?: string; chunked?: true };
type TSeen = { status: number; headers: Record<string, string>; body: string };
// Differ by nature between two answers, or are the connection's: not compared.
const VOLATILE = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length", "x-request-id", "vary"]);
const seen = (status: number, headers: [string, string][], body: string): TSeen => ({
  status,
  headers: Object.fromEntries(headers.filter(([n]) => !VOLATILE.has(n)).sort(([a], [b]) => a.localeCompare(b))),
  body,
});

function overNode(c: TCase): Promise<TSeen & { vary?: string; requestId?: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...c.headers };
    if (c.body !== undefined && !c.chunked) headers["content-length"] = String(Buffer.byteLength(c.body));
    const req = request({ host: "127.0.0.1", port, method: c.method, path: `/idp${c.path}`, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
        const cookies = pairs.filter(([n]) => n === "set-cookie").map(([, v]) => v);
        const merged = pairs.filter(([n]) => n !== "set-cookie");
        if (cookies.length) merged.push(["set-cookie", cookies.join(", ")]);
        resolve({ ...seen(res.statusCode!, merged, body), vary: res.headers.vary, requestId: res.headers["x-request-id"] as string });
      });
    });
    req.on("error", reject);
    if (c.chunked && c.body !== undefined) {
      req.write(c.body.slice(0, 3));
      setTimeout(() => req.end(c.body!.slice(3)), 10);
    } else req.end(c.body);
  });
}

async function overNext(c: TCase): Promise<TSeen> {
  if (c.path === page.page.path) return seenOf(await page(new Request(`http://idp.test:3000${c.path}`, { method: c.method, headers: c.headers, body: c.body })));
  const route = ROUTES.find((r) => r.operation.method === c.method && new RegExp(`^${r.operation.path.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(c.path.split("?")[0]!))!;
  const names = [...route.operation.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const values = c.path.split("?")[0]!.split("/").filter((_, i) => route.operation.path.split("/")[i]?.startsWith("{"));
  const params = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(values[i]!)]));
  return seenOf(await route(new Request(`http://idp.test:3000${c.path}`, { method: c.method, headers: c.headers, body: c.body }), { params: Promise.resolve(params) }));
}

async function seenOf(res: Response): Promise<TSeen> {
  const pairs = [...res.headers].filter(([n]) => n !== "set-cookie");
  if (res.headers.getSetCookie().length) pairs.push(["set-cookie", res.headers.getSetCookie().join(", ")]);
  return seen(res.status, pairs, await res.text());
}

const CASES: TCase[] = [
  { method: "POST", path: "/t/echo/ann?q=1", headers: { "content-type": "application/json", "accept-language": "en" }, body: '{"n":5}' },
  { method: "POST", path: "/t/echo/a%40b", headers: { "content-type": "application/json" }, body: '{"n":5}', chunked: true },
  { method: "POST", path: "/t/echo/ann?zz=1" },
  { method: "POST", path: "/t/echo/ann", headers: { "content-type": "application/json" }, body: '{"n":"five"}' },
  { method: "POST", path: "/t/echo/ann", headers: { "content-type": "text/plain" }, body: "{}" },
  { method: "POST", path: "/t/echo/ann", headers: { "content-type": "application/json" }, body: `{"n":1,"pad":"${"a".repeat(70_000)}"}`, chunked: true },
  { method: "PUT", path: "/t/raw", body: "hello" },
  { method: "PUT", path: "/t/raw", body: "fail" },
  { method: "PUT", path: "/t/raw", body: "bug" },
  { method: "GET", path: "/t/stream" },
  { method: "DELETE", path: "/t/echo/ann" },
  { method: "POST", path: "/t/page", headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "ru" }, body: "flow=known&name=Ann" },
  { method: "POST", path: "/t/page", headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "ru" }, body: "flow=gone" },
];

describe("the node:http and Next transports over the same core", () => {
  it.each(CASES.map((c) => [`${c.method} ${c.path}${c.chunked ? " (chunked)" : ""}`, c] as const))("answer %s alike", async (_, c) => {
    const [node, next] = await Promise.all([overNode(c), overNext(c)]);
    const { vary, requestId, ...nodeSeen } = node;
    expect(nodeSeen).toEqual(next);
    // The node:http transport says what Next says of every app route, and both give a request id.
    expect(vary).toBe("rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers what a client sees of each case", async () => {
    expect(JSON.parse((await overNode(CASES[0]!)).body)).toEqual({ name: "ann", q: "1", n: 5, lang: "en" });
    expect(JSON.parse((await overNode(CASES[1]!)).body)).toMatchObject({ name: "a@b", n: 5 });
    expect(await overNode(CASES[5]!)).toMatchObject({ status: 413 });
    expect(await overNode(CASES[6]!)).toMatchObject({ status: 201, body: "got 5", headers: { "set-cookie": "a=1; Path=/, b=2; Path=/" } });
    expect(await overNode(CASES[8]!)).toMatchObject({ status: 500, headers: { "content-type": "application/json" } });
    expect(await overNode(CASES[9]!)).toMatchObject({ status: 200, body: "a,b\n1,2\n" });
    expect(await overNode(CASES[10]!)).toMatchObject({ status: 204, body: "", headers: { deprecation: "true" } });
    // A page: its HTML and cookie, and an error as a page in the visitor's language.
    expect(await overNode(CASES[11]!)).toMatchObject({ status: 200, body: expect.stringContaining("<p>Ann</p>"), headers: { "set-cookie": "c=1; Path=/; HttpOnly" } });
    expect(await overNode(CASES[12]!)).toMatchObject({ status: 404, body: expect.stringContaining('lang="ru"'), headers: { "content-type": expect.stringContaining("text/html") } });
  });

  it("leaves to Next what is not an operation of its own or what Next treats specially", async () => {
    for (const path of ["/t/nothing", "/t/echo/ann/", "/t//raw", "/t/echo/x%zz", "/t/echo/a%2Fb", "/t/echo/ann.rsc"]) {
      expect((await overNode({ method: "POST", path })).status, path).toBe(599);
    }
    expect((await overNode({ method: "GET", path: "/t/raw" })).status).toBe(599);
    expect((await overNode({ method: "GET", path: "/t/stream", headers: { rsc: "1" } })).status).toBe(599);
  });
});
