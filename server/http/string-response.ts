// Responses whose body is a string the handler already holds (JSON, an error body, a page). Node 20's
// Response turns such a body into a ReadableStream as it is constructed (undici's extractBody, and
// every Node 20 ReadableStream pays makeTransferable): 15 µs, where the rest of a cached read on the
// fast path costs about 200 µs (bench/README.md). The fast path needs only the status, the headers
// and the string, and writes them with one res.end() (server/serve/node-web.mjs). Everyone else
// (Next's pipeline, a test calling .json()) gets a real Response, built on first use of anything
// beyond status and headers, which answers from then on. `instanceof Response` holds throughout.
import { STRING_BODY } from "./server-handoff.mjs";

type TState = { status: number; statusText: string; headers: Headers; body: string | null; real?: Response };

const STATE = Symbol("idp.string-response");
type TStringResponse = Response & { [STATE]: TState };

// Statuses that must not carry a body (Fetch: "null body status"); Response refuses one.
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

function real(res: TStringResponse): Response {
  const s = res[STATE];
  if (!s.real) {
    s.real = new Response(s.body, { status: s.status, statusText: s.statusText, headers: s.headers });
    // From now on the real one's headers are the headers: a later set() must reach what is sent. A
    // Headers object taken from `headers` before this moment no longer is them; nothing here keeps
    // one across the moment (finish() and Next read `headers` afresh each time).
    s.headers = s.real.headers;
  }
  return s.real;
}

const proto: object = Object.create(Response.prototype);
const own: PropertyDescriptorMap = {
  status: { get(this: TStringResponse) { return this[STATE].status; } },
  statusText: { get(this: TStringResponse) { return this[STATE].statusText; } },
  ok: { get(this: TStringResponse) { const { status } = this[STATE]; return status >= 200 && status <= 299; } },
  headers: { get(this: TStringResponse) { return this[STATE].headers; } },
  [STRING_BODY]: { get(this: TStringResponse) { const s = this[STATE]; return s.real ? undefined : s.body; } },
};
// Every other member of Response (body, bodyUsed, url, type, json(), text(), clone(), …) is the real
// Response's, so none can be missed or answer differently.
for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(Response.prototype))) {
  if (name === "constructor" || name in own) continue;
  if (d.get) own[name] = { get(this: TStringResponse) { return Reflect.get(real(this), name); } };
  else if (typeof d.value === "function") {
    const method = d.value as (...args: unknown[]) => unknown;
    own[name] = { value(this: TStringResponse, ...args: unknown[]) { return method.apply(real(this), args); } };
  }
}
Object.defineProperties(proto, own);

/**
 * `new Response(body, init)` for a string or no body, with Response's checks and its default
 * content type for a string. (An integer status only: Response would truncate 200.5 to 200.)
 */
export function stringResponse(body: string | null, init: { status?: number; statusText?: string; headers?: HeadersInit } = {}): Response {
  const status = init.status ?? 200;
  if (!Number.isInteger(status) || status < 200 || status > 599) throw new RangeError(`Response status ${status} is outside 200-599`);
  if (body !== null && NULL_BODY_STATUS.has(status)) throw new TypeError(`Response with status ${status} cannot have a body`);
  // A copy, as Response makes one: the caller's object may change afterwards without changing this.
  const headers = new Headers(init.headers);
  if (body !== null && !headers.has("content-type")) headers.set("content-type", "text/plain;charset=UTF-8");
  const res = Object.create(proto) as TStringResponse;
  res[STATE] = { status, statusText: init.statusText ?? "", headers, body };
  return res;
}
