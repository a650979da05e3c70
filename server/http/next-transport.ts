// The Next transport of the request core: what an app/ route file exports is a plain Next route
// handler, which turns the Web Request into a TIncoming, runs the core and builds a real Response
// from the answer. `next dev`, `next start` and the production server's non-API traffic come this way.
import type { TAnswer, TAnswerBody, TIncoming } from "./exchange.ts";

type TRawParams = Record<string, string | string[] | undefined>;

/** A Next route handler: what an app/ route file exports for a method. */
export type TNextRouteHandler = (req: Request, context: { params: Promise<TRawParams> }) => Promise<Response>;

/**
 * The Next route handler of a core run. `folderNames` maps an app/ folder's parameter name to the
 * document's (Next allows one name per folder level, the contract names `/users/{subjectId}` and
 * `/users/{instanceId}`).
 */
export function nextRoute(run: (req: TIncoming, params: Record<string, string>) => Promise<TAnswer>, folderNames: Record<string, string> = {}): TNextRouteHandler {
  return async (req, context) => responseOf(await run(incomingOf(req), pathParams((await context?.params) ?? {}, folderNames)));
}

/** A handler of the core's pages (no path parameters) as a Next route handler. */
export function nextPage(run: (req: TIncoming) => Promise<TAnswer>): (req: Request) => Promise<Response> {
  return async (req) => responseOf(await run(incomingOf(req)));
}

/** Path parameters under the document's names, a catch-all's segments joined by "/". */
function pathParams(raw: TRawParams, names: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const k of Object.keys(raw)) {
    const v = raw[k];
    params[names[k] ?? k] = Array.isArray(v) ? v.join("/") : (v ?? "");
  }
  return params;
}

/** A Web Request as the core reads it. Route handlers see its URL without Next's basePath. */
export function incomingOf(req: Request): TIncoming {
  const url = new URL(req.url);
  return { method: req.method, path: url.pathname, search: url.search, headers: req.headers, readBody: (limit) => readLimited(req.body, limit) };
}

/** The stream's bytes up to `limit`; undefined, having stopped reading, past it. */
async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array | undefined> {
  if (!body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The core's answer as a Response. */
export function responseOf(answer: TAnswer): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else for (const v of value) headers.append(name, v);
  }
  return new Response(bodyOf(answer.body), { status: answer.status, headers });
}

function bodyOf(body: TAnswerBody): BodyInit | null {
  // A Uint8Array over a shared or resizable buffer is no BodyInit to TypeScript; ours never are.
  return body instanceof Uint8Array ? (body as Uint8Array<ArrayBuffer>) : body;
}
