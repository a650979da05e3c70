// What the request core reads of a request and what it answers, whichever transport carried them:
// Next's route handlers (server/http/next-transport.ts) or the production server's node:http listener
// (server/serve/api-transport.mjs). Neither side pretends to be the other: these are plain objects.

/** A request's headers by name (any case), as Fetch's Headers.get() gives them: repeated ones joined by ", ". */
export type THeaderReader = { get(name: string): string | null };

/** What anything reading a request's headers needs: a Web Request fits, so does a TIncoming. */
export type THasHeaders = { readonly headers: THeaderReader };

/** One request as the core sees it. */
export type TIncoming = THasHeaders & {
  readonly method: string;
  /** The path below the context path, as sent (percent escapes kept). */
  readonly path: string;
  /** The query as sent, with its "?"; "" when there is none. */
  readonly search: string;
  /**
   * The body's bytes; undefined when it is longer than `limit`, in which case the transport stops
   * reading it (and the core answers request.too_large). A request without a body gives no bytes.
   */
  readBody(limit: number): Promise<Uint8Array | undefined>;
};

/** An answer's body: text, bytes, a stream written as it comes (a CSV export), or none. */
export type TAnswerBody = string | Uint8Array | ReadableStream<Uint8Array> | null;

/** An answer's headers, names in lower case; Set-Cookie as a list, one entry per cookie. */
export type TAnswerHeaders = Readonly<Record<string, string | readonly string[]>>;

/** What the core answers; each transport writes it in its own way. */
export type TAnswer = { readonly status: number; readonly headers: TAnswerHeaders; readonly body: TAnswerBody };

/**
 * An answer a handler made itself (a page, a redirect, a download) rather than a value the core
 * turns into JSON: the class tells the two apart.
 */
export class Answer implements TAnswer {
  constructor(
    readonly status: number,
    readonly headers: TAnswerHeaders = {},
    readonly body: TAnswerBody = null,
  ) {}

  /** `value` as JSON. */
  static json(value: unknown, status = 200, headers: TAnswerHeaders = {}): Answer {
    return new Answer(status, { "content-type": "application/json", ...headers }, JSON.stringify(value));
  }

  /** A redirect to `location`, never cached. */
  static redirect(status: 302 | 303, location: string, headers: TAnswerHeaders = {}): Answer {
    return new Answer(status, { location, "cache-control": "no-store", ...headers });
  }
}

/** The query parameter `name` of `req` (the first when repeated), or null. */
export function queryParam(req: Pick<TIncoming, "search">, name: string): string | null {
  return req.search ? new URLSearchParams(req.search).get(name) : null;
}
