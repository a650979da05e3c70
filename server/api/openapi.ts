import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ERROR_CODES, type TErrorCode, type TErrorType } from "../errors/codes.ts";
import type { TErrorShape } from "../errors/render.ts";
import type { TOperation } from "../http/define-route.ts";
import { errorShapeOf } from "../http/respond.ts";
import { ZRqlQueryParam } from "../rql/rql.schemas.ts";

const ZItem = z.object({ type: z.literal("input_error"), error: z.string(), desc: z.string(), pos: z.string(), params: z.record(z.string(), z.unknown()) });

// One schema per body shape of the contract's Errors section.
const SHAPES = {
  security_error: z.object({ type: z.literal("security_error"), error: z.string(), desc: z.string() }).meta({ id: "SecurityError" }),
  process_error: z
    .object({ type: z.literal("process_error"), error: z.string(), desc: z.string(), params: z.record(z.string(), z.unknown()) })
    .meta({ id: "ProcessError" }),
  input_error: z.object({ type: z.literal("input_error"), error: z.literal("wrong_values"), errors: z.array(ZItem) }).meta({ id: "InputError" }),
  not_found_error: z.object({ type: z.literal("not_found_error"), error: z.string(), desc: z.string() }).meta({ id: "NotFoundError" }),
  method_error: z.object({ type: z.literal("method_error"), error: z.string(), desc: z.string() }).meta({ id: "MethodError" }),
  internal_error: z
    .object({ type: z.literal("internal_error"), error: z.string(), desc: z.string(), requestId: z.string() })
    .meta({ id: "InternalError" }),
} satisfies Record<TErrorType, z.ZodType>;

const FAMILY_SHAPES: Record<Exclude<TErrorShape, "v3">, z.ZodType> = {
  oauth: z.object({ error: z.string(), error_description: z.string().optional() }).meta({ id: "OAuthError" }),
  v2: z.object({ errors: z.array(z.object({ code: z.string(), desc: z.string(), params: z.record(z.string(), z.unknown()) })) }).meta({ id: "V2Error" }),
  registration: z.object({ errors: z.array(z.object({ errMsg: z.string(), field: z.string() })), context: z.literal("") }).meta({ id: "RegistrationError" }),
};

/** Errors every operation can answer with, derived from how it authenticates and what it parses. */
function impliedErrors(op: TOperation): TErrorCode[] {
  // Any operation may find the database gone (a restart, an outage): 503 with Retry-After.
  const codes: TErrorCode[] = ["internal", "db.unavailable"];
  if (op.auth.kind === "bearer") {
    codes.push("auth.token_missing", "auth.token_expired", "auth.token_invalid", "auth.token_revoked", "auth.scope_missing", "auth.wrong_mode");
    if (op.auth.subjectParam) codes.push("auth.wrong_subject");
    // `current` asked with a client token, which has no user of its own (the request core refuses it).
    if (op.auth.subjectParam || op.auth.currentParam) codes.push(op.auth.noCurrentUser ?? "user.not_found");
  }
  if (op.auth.kind === "basic" && op.auth.scopes) codes.push(op.auth.v1 ? "auth.basic_not_allowed" : "auth.basic_scope_missing");
  if (op.auth.kind === "basic") codes.push("auth.basic_invalid");
  if (op.body) codes.push("request.malformed", "request.invalid_values", "request.unsupported_media_type", "request.too_large");
  else if (op.params || op.query) codes.push("request.invalid_values");
  return codes;
}

function errorResponses(op: TOperation): RouteConfig["responses"] {
  const byStatus = new Map<number, TErrorCode[]>();
  for (const code of new Set([...op.errors, ...impliedErrors(op)])) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const schemaOf = (code: TErrorCode): z.ZodType => {
    const shape = errorShapeOf(op, code);
    return shape === "v3" ? SHAPES[ERROR_CODES[code].type] : FAMILY_SHAPES[shape];
  };
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => {
      const schemas = [...new Set(codes.map(schemaOf))];
      const schema = schemas.length === 1 ? schemas[0]! : z.union(schemas as [z.ZodType, z.ZodType]);
      const lines = codes.map((c) => {
        const d = ERROR_CODES[c];
        return errorShapeOf(op, c) === "oauth" ? `\`${d.oauth ?? "server_error"}\`` : `\`${d.error}\` / \`${d.desc}\``;
      });
      const description = [...new Set(lines)].join(", ");
      // A browser-facing endpoint shows its failures as a page.
      if (op.renderError) return [String(status), { description: `HTML page: ${description}`, content: { "text/html": { schema: z.string() } } }];
      return [String(status), { description, content: { "application/json": { schema } } }];
    }),
  );
}

type TResponseObject = { description: string; content?: { "application/json"?: { schema: z.ZodType }; "text/html"?: { schema: z.ZodType } } };

/** Adds an operation's further answers; where one shares a status with another answer, either body may come. */
function withOtherResponses(op: TOperation, responses: RouteConfig["responses"]): RouteConfig["responses"] {
  const out = { ...responses } as Record<string, TResponseObject>;
  for (const r of op.otherResponses ?? []) {
    const key = String(r.status);
    const existing = out[key];
    const schemas = [r.schema, existing?.content?.["application/json"]?.schema].filter((s): s is z.ZodType => !!s);
    const schema = schemas.length > 1 ? z.union(schemas as [z.ZodType, z.ZodType]) : schemas[0];
    out[key] = {
      description: existing ? `${r.description}; or ${existing.description}` : r.description,
      ...(schema ? { content: { "application/json": { schema } } } : existing?.content ? { content: existing.content } : {}),
    };
  }
  return out;
}

function security(op: TOperation): RouteConfig["security"] {
  if (op.auth.kind === "bearer") {
    const bearer = { bearerAuth: [...(op.auth.user ?? []), ...(op.auth.system ?? [])] };
    // A system token can be fetched right from the reference page ("try it") through the OAuth2 flow.
    return op.auth.system?.length ? [bearer, { [CLIENT_CREDENTIALS]: [...op.auth.system] }] : [bearer];
  }
  if (op.auth.kind === "basic") return [{ basicAuth: [] }, { [MUTUAL_TLS]: [] }];
  if (op.errorShape === "oauth") return [{ clientBasic: [] }, { [MUTUAL_TLS]: [] }, {}];
  return [];
}

function toRouteConfig(op: TOperation): RouteConfig {
  const json = op.body ?? op.jsonBody;
  const body = json
    ? { content: { "application/json": { schema: json } } }
    : op.form
      ? { content: { "application/x-www-form-urlencoded": { schema: op.form } } }
      : undefined;
  const scopes =
    op.auth.kind === "bearer"
      ? { "x-scopes": { user: op.auth.user ?? [], system: op.auth.system ?? [] } }
      : op.auth.kind === "basic" && op.auth.scopes
        ? { "x-scopes": { user: [], system: op.auth.scopes } }
        : {};
  return {
    method: op.method.toLowerCase() as RouteConfig["method"],
    path: op.path,
    summary: op.summary,
    description: op.description,
    tags: op.tags,
    deprecated: op.deprecated,
    security: security(op),
    ...scopes,
    request: {
      // defineRoute accepts any zod type; the documented ones are objects, which is what this takes.
      params: op.params as never,
      query: op.query as never,
      body,
    },
    responses: withOtherResponses(op, {
      ...errorResponses(op),
      [String(op.response.status)]: {
        description: op.response.description,
        ...(op.response.schema ? { content: { "application/json": { schema: op.response.schema } } } : {}),
      },
    }),
  };
}

/**
 * Query parameters several operations share, described once under components.parameters: an operation
 * whose query schema holds one of these schemas refers to it instead of repeating it. (Registering them
 * through the registry would need zod's global .openapi() extension; a definition list takes them as they are.)
 */
const SHARED_PARAMETERS = [{ type: "parameter" as const, schema: ZRqlQueryParam }];

const CLIENT_CREDENTIALS = "clientCredentials";
const MUTUAL_TLS = "clientCertificate";

/** Every system scope some operation accepts, with how many operations accept it. */
function systemScopes(operations: TOperation[]): Record<string, string> {
  const counts = new Map<string, number>();
  for (const op of operations) {
    if (op.auth.kind !== "bearer") continue;
    for (const scope of op.auth.system ?? []) counts.set(scope, (counts.get(scope) ?? 0) + 1);
  }
  return Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)).map(([scope, n]) => [scope, `system scope, accepted by ${n} operation${n === 1 ? "" : "s"}`]));
}

/** Builds the OpenAPI 3.1 document from the operations defineRoute registered. */
export function buildOpenApiDocument(operations: TOperation[], serverUrl: string) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "Access token from POST /oauth/te (system mode) or a user's token (user mode). Required scopes: any one listed.",
  });
  registry.registerComponent("securitySchemes", "basicAuth", {
    type: "http",
    scheme: "basic",
    description: "v1/v2: the client application id and its REST password.",
  });
  registry.registerComponent("securitySchemes", "clientBasic", {
    type: "http",
    scheme: "basic",
    description: "OAuth client authentication: client id and secret, each form-urlencoded, then base64 (RFC 6749 §2.3.1). client_secret_post is accepted instead.",
  });
  // OpenAPI 3.1's mutualTLS, which openapi3-ts's types do not know yet.
  registry.registerComponent("securitySchemes", MUTUAL_TLS, {
    type: "mutualTLS",
    description:
      "A client certificate (where the server receives them: IDP_TLS_CLIENT_CA with its own TLS, or a trusted proxy's header) issued by the " +
      "configured CA, whose subject CN the client application lists in tlsCNs. v1/v2: instead of HTTP Basic; the client is the one listing " +
      "the CN, or the one named as the Basic login with an empty password (required when several clients list the CN). OAuth endpoints: " +
      "RFC 8705 tls_client_auth, client_id in the form and no secret. Discovery lists tls_client_auth only where it works.",
  } as unknown as Parameters<typeof registry.registerComponent<"securitySchemes">>[2]);
  registry.registerComponent("securitySchemes", CLIENT_CREDENTIALS, {
    type: "oauth2",
    description:
      "A system access token for the client application's own scopes (RFC 6749 §4.4): the client id and secret at POST /oauth/te, " +
      "sent in HTTP Basic or in the form; request at least one scope.",
    flows: { clientCredentials: { tokenUrl: `${serverUrl}/oauth/te`, scopes: systemScopes(operations) } },
  });
  for (const op of operations) registry.registerPath(toRouteConfig(op));
  return new OpenApiGeneratorV31([...registry.definitions, ...SHARED_PARAMETERS]).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Identity Service API",
      version: "1",
      description: "REST API v1-v4 and OAuth 2.0 endpoints. v1/v2 operations with v3/v4 successors are deprecated.",
    },
    servers: [{ url: serverUrl }],
  });
}
