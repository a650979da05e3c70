import { getConfig } from "../config/config.ts";
import { isCrossSite, isOversizedBody } from "../http/browser-requests.ts";
import { MAX_BODY_BYTES } from "../http/parse.ts";
import { consoleUserOf, readConsoleSession } from "../auth/console-session.ts";

// Uploads, each alone in its request, may send more (the procedure still checks the size, and only
// an administrator gets past the procedure's check): the FIDO metadata BLOB is megabytes; a SAML
// application's metadata up to 512 KiB, JSON-escaped.
const UPLOADS: ReadonlyMap<string, number> = new Map([
  ["console.passkeyPolicy.uploadMetadata", 24 * 1024 * 1024],
  ["console.samlSps.create", 1024 * 1024],
  ["console.samlSps.update", 1024 * 1024],
]);

const uploadLimitOf = (req: Request) => UPLOADS.get(new URL(req.url).pathname.split("/").pop() ?? "");
const isUpload = (req: Request) => uploadLimitOf(req) !== undefined;

function bodyLimitOf(req: Request): number {
  return uploadLimitOf(req) ?? MAX_BODY_BYTES;
}

/**
 * The upload's larger body is read only for someone signed in to the console: tRPC reads a body
 * before its procedures check who calls, so without this anyone could have megabytes parsed.
 */
export async function refuseAnonymousUpload(req: Request): Promise<Response | undefined> {
  if (!isUpload(req) || (await consoleUserOf(await readConsoleSession()))) return undefined;
  return refusal(401, "UNAUTHORIZED", "sign in to the console first");
}

function refusal(status: number, code: string, message: string): Response {
  // tRPC's own error envelope, so the pages show it like any other failed call.
  return Response.json({ error: { message, code: -32600, data: { code, httpStatus: status } } }, { status, headers: { "cache-control": "no-store" } });
}

/**
 * What tRPC must never see: a call from another site's page (the console's procedures act with the
 * administrator's cookies), a mutation whose body is not JSON (an HTML form can send no JSON, so a
 * cross-site form post is refused twice over), or a body over the request limit.
 */
export function refuseTrpcRequest(req: Request): Response | undefined {
  if (isCrossSite(req, new URL(getConfig().publicUrl).origin)) return refusal(403, "FORBIDDEN", "calls come only from the service's own pages");
  if (req.method === "POST" && req.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() !== "application/json") {
    return refusal(415, "UNSUPPORTED_MEDIA_TYPE", "calls send JSON");
  }
  const limit = bodyLimitOf(req);
  if (isOversizedBody(req, limit)) return refusal(413, "PAYLOAD_TOO_LARGE", `a call's body is at most ${limit} bytes, with its size declared`);
  return undefined;
}
