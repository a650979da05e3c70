import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { request } from "../support/http.ts";
import { rawRequest, type TRawResponse } from "../support/raw-http.ts";

// Malformed paths, queries and headers at every operation of the OpenAPI document (read at run time,
// so operations added later are covered), sent byte for byte over raw HTTP/1.1.

type TShape = "v3" | "v2" | "registration" | "oauth";

// The API families by prefix below the context path, as the API names them; other paths are pages.
const FAMILIES: [string, TShape][] = [["/admin/api/", "v3"], ["/reg/api/", "registration"], ["/api/", "v3"], ["/oauth/", "oauth"], ["/.well-known/", "oauth"]];
// Next, like a WHATWG URL, resolves encoded dot segments (`/oauth/%2e%2e/te` is `/te`) before routing
// and before the proxy: a request belongs to the family of its resolved path.
function familyOf(path: string): TShape | undefined {
  const resolved = new URL(path, "http://idp.test").pathname;
  return FAMILIES.find(([prefix]) => resolved.startsWith(prefix))?.[1];
}

// Escapes that do not decode to UTF-8: refused before routing with a 400.
const BAD_ESCAPES = ["%zz", "%", "x%2", "%g1", "%u0041", "%%41", "%ff", "%fe%ff", "%80", "%c0%af", "%e0%80%af", "%f0%80%80%af", "%c0%ae%c0%ae", "%e2%82", "%ed%a0%80", "%f4%90%80%80"];
// Escapes that decode but are hostile: NUL, encoded dot segments and separators, double encoding, length.
const ODD_ESCAPES = ["%00", "a%00b", "%0d%0a", "%2e%2e", "%2e%2e%2f%2e%2e%2f%2e%2e", "..%2f..%2f", "%2e%2e%5c%2e%2e", "%2f", "%25zz", "%25c0%25af", "%252e%252e%252f", "a".repeat(4000), "%41".repeat(1200), "%e2%82%ac".repeat(400)];
const QUERIES = ["a=%zz", "%ff=1", "a=%c0%af", "a=%00", "%00=1", "a=%", "%zz", "a=%e2%82", "=", "&&&", "a=1&a=2", `a=${"b".repeat(4000)}`];
const b64 = (latin1: string) => Buffer.from(latin1, "latin1").toString("base64");
// Headers a client can send that the application sees.
const HEADERS = [
  `Authorization: Bearer ${"a".repeat(8000)}`,
  "Authorization: Bearer not.a.jwt",
  "Authorization: Bearer \xff\xfe.\xfd",
  `Authorization: Basic ${b64("\xff\xfe:\xc0\xaf")}`,
  `Authorization: Basic ${b64("svc-app:\xff")}`,
  "Authorization: Basic \xff\xfe\xfd",
  "Authorization: Basic %%%%",
  `Authorization: Basic ${b64("no-colon")}`,
  "Authorization: \xff",
  `User-Agent: ${"u".repeat(8000)}`,
  `X-Forwarded-For: \xff${"1".repeat(1000)}`,
  "X-Request-Id: \xff\xfe",
  "Content-Type: \xff/\xfe",
  "Cookie: a=%zz; idp-console.session-token=\xff%zz; idp-portal.session-token=%zz",
  "Accept-Language: \xff\xff",
];
// Requests Node's HTTP parser refuses before any JavaScript of Next or ours runs: a bare 400 or 431.
const PARSER_REFUSED = [
  "Content-Length: abc",
  "Content-Length: -1",
  "Content-Length: 99999999999999999999",
  "Content-Length: 0\r\nContent-Length: 5",
  "Transfer-Encoding: chunked, gzip",
  `Authorization: Bearer ${"a".repeat(20000)}`,
];

/** `page`: a browser-facing endpoint (authorization, logout) that answers failures with an HTML page. */
/** shape: the family's, as its 500 documents it; statusShapes: where a status documents another (a bad token at a registration operation). */
type TOp = { method: string; template: string; shape: TShape; statusShapes: Record<string, TShape>; bodyType?: string; page?: boolean };
type TCase = { op: TOp; label: string; path: string; query?: string; header?: string; badEscape?: boolean; parserRefused?: boolean; rawTarget?: string };

const SHAPE_OF_SCHEMA: Record<string, TShape> = { OAuthError: "oauth", RegistrationError: "registration", V2Error: "v2" };

function operationsOf(doc: any): TOp[] {
  return Object.entries<any>(doc.paths).flatMap(([template, item]) =>
    Object.entries<any>(item)
      .filter(([m]) => ["get", "post", "put", "patch", "delete"].includes(m))
      .map(([m, op]) => {
        // Every operation documents its 500 in its family's error schema.
        const shapeOf = (response: any): TShape => SHAPE_OF_SCHEMA[String(response?.content?.["application/json"]?.schema?.$ref ?? "").split("/").pop()!] ?? "v3";
        const page = !!op.responses["500"]?.content?.["text/html"];
        const statusShapes = Object.fromEntries(Object.entries<any>(op.responses).map(([status, response]) => [status, shapeOf(response)]));
        return { method: m.toUpperCase(), template, shape: shapeOf(op.responses["500"]), statusShapes, bodyType: Object.keys(op.requestBody?.content ?? {})[0], page };
      }),
  );
}

/** Each mutation at the end of the path, as a last and as a middle segment, and in each parameter. */
function pathVariants(template: string, escape: string): string[] {
  const sample = template.replace(/\{[^}]+\}/g, "sample");
  const cut = sample.lastIndexOf("/") + 1;
  const params = [...template.matchAll(/\{[^}]+\}/g)].map((m) => template.replace(m[0], escape).replace(/\{[^}]+\}/g, "sample"));
  return [`${sample}${escape}`, `${sample}/${escape}`, `${sample.slice(0, cut)}${escape}/${sample.slice(cut)}`, ...params];
}

function casesFor(op: TOp): TCase[] {
  const sample = op.template.replace(/\{[^}]+\}/g, "sample");
  return [
    ...BAD_ESCAPES.flatMap((e) => pathVariants(op.template, e).map((path) => ({ op, label: `path ${e}`, path, badEscape: true }))),
    ...ODD_ESCAPES.flatMap((e) => pathVariants(op.template, e).map((path) => ({ op, label: `path ${e.slice(0, 20)}`, path }))),
    ...QUERIES.map((query) => ({ op, label: `query ${query.slice(0, 20)}`, path: sample, query })),
    ...HEADERS.map((header) => ({ op, label: `header ${header.slice(0, 30)}`, path: sample, header })),
    ...PARSER_REFUSED.map((header) => ({ op, label: `header ${header.slice(0, 30)}`, path: sample, header, parserRefused: true })),
    { op, label: "raw byte in the target", path: sample, rawTarget: `${sample}/\xff`, parserRefused: true },
  ];
}

function requestText(c: TCase, ctxPath: string): string {
  const target = `${ctxPath}${c.rawTarget ?? c.path}${c.query === undefined ? "" : `?${c.query}`}`;
  const framing = /content-length|transfer-encoding/i.test(c.header ?? "");
  const typed = /content-type/i.test(c.header ?? "");
  // A well-formed body of the operation's own media type, so that the request gets past body parsing.
  const body = c.op.bodyType === "application/json" ? "{}" : c.op.bodyType ? "grant_type=client_credentials" : "";
  const lines = [`${c.op.method} ${target} HTTP/1.1`, "Host: 127.0.0.1", "Connection: close"];
  if (!framing) lines.push(`Content-Length: ${body.length}`);
  if (!typed && c.op.bodyType) lines.push(`Content-Type: ${c.op.bodyType}`);
  if (c.header) lines.push(c.header);
  return `${lines.join("\r\n")}\r\n\r\n${framing ? "" : body}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const SHAPE_CHECKS: Record<TShape, (b: any) => boolean> = {
  v3: (b) =>
    isObject(b) && typeof b.type === "string" && typeof b.error === "string" &&
    (b.type === "input_error" ? Array.isArray(b.errors) && b.errors.every((i: any) => typeof i.desc === "string" && typeof i.pos === "string") : typeof b.desc === "string"),
  v2: (b) => isObject(b) && Array.isArray(b.errors) && b.errors.every((i: any) => typeof i.code === "string" && typeof i.desc === "string" && isObject(i.params)),
  registration: (b) => isObject(b) && b.context === "" && Array.isArray(b.errors) && b.errors.every((i: any) => typeof i.errMsg === "string" && typeof i.field === "string"),
  oauth: (b) => isObject(b) && typeof b.error === "string" && ["undefined", "string"].includes(typeof b.error_description),
};
// A refusal of the malformed-URL kind in each shape: 400 input_error / invalid_request.
const REFUSAL_CHECKS: Record<TShape, (b: any) => boolean> = {
  v3: (b) => b.type === "input_error",
  v2: (b) => b.errors.length > 0,
  registration: (b) => b.errors.length > 0,
  oauth: (b) => b.error === "invalid_request",
};
// Stack frames, error messages, module and file paths: what a leaked exception looks like.
const INTERNAL_TEXT = /\bat \/|\bat [\w$.<>]+ \(|\b\w*Error: |node_modules|[Pp]risma|Internal Server Error/;

function jsonOf(r: TRawResponse): unknown {
  try {
    return JSON.parse(r.text);
  } catch {
    return undefined;
  }
}

/** What is wrong with one answer, or undefined. */
function problemWith(c: TCase, r: TRawResponse): string | undefined {
  if (r.status < 100 || r.status >= 500) return `status ${r.status}`;
  // A script the service ships (the API reference's bundle) is code full of error messages, not a leaked one.
  const shippedScript = r.status === 200 && r.headers["content-type"] === "text/javascript; charset=utf-8";
  if (!shippedScript && (INTERNAL_TEXT.test(r.text) || r.text.includes(process.cwd()))) return `internal text in the body: ${r.text.slice(0, 200)}`;
  if (c.parserRefused) return r.status === 400 || r.status === 431 ? undefined : `status ${r.status}, not Node's 400/431`;
  if (c.badEscape && r.status !== 400) return `status ${r.status}, not 400`;
  if (r.status < 400) return undefined;
  // The proxy and the catch-all routes answer in the path's family, an operation in its own shape.
  const family = familyOf(c.path);
  const reachesOperation = c.header !== undefined || c.query !== undefined;
  if (!reachesOperation && !family) return undefined;
  if (reachesOperation && c.op.page) return r.headers["content-type"]?.startsWith("text/html") ? undefined : `content-type ${r.headers["content-type"]}, not an HTML page`;
  const opShape = c.op.statusShapes[String(r.status)] ?? c.op.shape;
  const expected = c.badEscape ? [family!] : reachesOperation ? [opShape] : [family!, opShape];
  const body = jsonOf(r);
  if (!r.headers["content-type"]?.startsWith("application/json")) return `content-type ${r.headers["content-type"]}, not JSON`;
  if (!expected.some((s) => SHAPE_CHECKS[s](body) && (!c.badEscape || REFUSAL_CHECKS[s](body)))) return `body not in the ${expected.join("/")} shape: ${r.text.slice(0, 200)}`;
  return undefined;
}

async function inParallel<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return out;
}

describe("malformed requests", () => {
  const base = () => new URL(inject("baseUrl"));

  it("refuses the issue's examples in each family's shape, with a request id and a log line", async () => {
    const { hostname, port, pathname: ctx } = base();
    const send = (method: string, path: string) =>
      rawRequest(hostname, Number(port), `${method} ${ctx}${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    const desc = "the path holds a percent escape that is not valid UTF-8";
    const v3 = { type: "input_error", error: "wrong_values", errors: [{ type: "input_error", error: "wrong_value", desc, pos: "", params: {} }] };
    const oauth = { error: "invalid_request", error_description: desc };
    const registration = { errors: [{ errMsg: desc, field: "" }], context: "" };
    const examples: [string, string, unknown][] = [
      ["GET", "/api/v3/users/x%zz", v3],
      ["GET", "/api/v3/users/x%c0%af", v3],
      ["POST", "/oauth/te%ff", oauth],
      ["GET", "/admin/api/v3/rights/x/%ff", v3],
      ["PUT", "/reg/api/v3/users%e2%82", registration],
      ["GET", "/.well-known/jwks.json%zz", oauth],
    ];
    for (const [method, path, body] of examples) {
      const r = await send(method, path);
      expect(r.status, `${method} ${path}`).toBe(400);
      expect(r.headers["content-type"]).toBe("application/json");
      expect(jsonOf(r), `${method} ${path}`).toEqual(body);
      expect(r.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    }
    const page = await send("GET", "/console/x%zz");
    expect(page.status).toBe(400);
    expect(page.headers["content-type"]).toBe("text/plain; charset=utf-8");
    const id = (await send("GET", "/api/v3/users/logged%zz")).headers["x-request-id"];
    await new Promise((r) => setTimeout(r, 200));
    const line = readFileSync(inject("serverLog"), "utf8").split("\n").find((l) => l.includes(`"${id}"`));
    expect(JSON.parse(line!)).toMatchObject({ msg: "request", method: "GET", path: "/api/v3/users/logged%zz", status: 400 });
  });

  it("answers generated malformed paths, queries and headers at every operation with a 4xx in the family's shape", async () => {
    const { hostname, port, pathname: ctx } = base();
    const doc = (await request("/api/openapi.json")).body;
    const ops = operationsOf(doc);
    expect(ops.length).toBeGreaterThanOrEqual(6);
    const cases = ops.flatMap(casesFor);
    expect(cases.length).toBeGreaterThan(300);
    const problems = (
      await inParallel(cases, 8, async (c) => {
        const problem = problemWith(c, await rawRequest(hostname, Number(port), requestText(c, ctx)));
        return problem && `${c.op.method} ${c.op.template} [${c.label}] ${c.path.slice(0, 80)}: ${problem}`;
      })
    ).filter(Boolean);
    expect(problems).toEqual([]);
    // Over a thousand requests, growing with every documented operation.
  }, 180_000);

  it("logs a cut path, not a 4,000-character one", async () => {
    const long = `/api/v3/users/${"p".repeat(4000)}`;
    const r = await request(long);
    const id = r.headers.get("x-request-id");
    await new Promise((res) => setTimeout(res, 200));
    const line = JSON.parse(readFileSync(inject("serverLog"), "utf8").split("\n").find((l) => l.includes(`"${id}"`))!);
    expect(line.path).toBe(`${long.slice(0, 256)}…[cut, ${long.length} chars]`);
  });
});
