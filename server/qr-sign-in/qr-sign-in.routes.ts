import { defineRoute } from "../caller/define-route.ts";
import { decideQrSignIn, describeQrSignIn } from "./qr-decisions.service.ts";
import { ZQrParams, ZQrSignInRequest } from "./qr-sign-in.schemas.ts";

const TAGS = ["QR sign-in (v3)"];
const AUTH = { kind: "bearer", user: ["idp_qr_auth"] } as const;
const DEVICE_HEADER = "idp-ci-ua-id";
const CODE_ERRORS = ["qr.not_found", "qr.expired", "qr.already_used"] as const;

const FLOW =
  "The sign-in page can show a QR code (`{ctx}/login`, \"Sign in with a QR code\"); it holds a single-use code that expires after " +
  "`IDP_QR_CODE_TTL` seconds (default 120). An application where the user is signed in reads it, shows what asks to sign in, and " +
  "confirms or refuses; the waiting browser is then signed in as the token's user or told it was refused. Its session inherits the confirming session's " +
  "auth_time and amr (plus \"qr\"): it counts as a second factor only when the confirming sign-in passed one. " +
  "Departure for security: only a first-party application's token may read, confirm or refuse a QR sign-in (403 client_not_allowed).";

export const describeQrRoute = defineRoute(
  {
    method: "GET",
    path: "/api/v3/auth/qr/{QR_code}",
    summary: "What a QR sign-in code asks for",
    description: `${FLOW} This read shows the application, the waiting browser (parsed from its User-Agent), its IP and the code's times; it decides nothing.`,
    tags: TAGS,
    auth: AUTH,
    params: ZQrParams,
    secretParams: ["QR_code"],
    response: { status: 200, description: "The sign-in waiting for a decision", schema: ZQrSignInRequest },
    errors: [...CODE_ERRORS, "qr.client_not_allowed"],
  },
  ({ ctx, params }) => describeQrSignIn(ctx, params.QR_code),
);

function decisionRoute(decision: "confirm" | "refuse") {
  return defineRoute(
    {
      method: "POST",
      path: `/api/v3/auth/qr/{QR_code}/${decision}`,
      summary: decision === "confirm" ? "Sign the waiting browser in as this user" : "Refuse the sign-in a QR code asks for",
      description:
        `${FLOW} A code is decided once: of parallel decisions one succeeds, the others answer 409. ` +
        (decision === "confirm"
          ? "A locked account cannot confirm (403). Departure for security: only a token of a browser session that still lives may " +
            "confirm (403 session_required). "
          : "") +
        "In user mode send X-Forwarded-For and User-Agent, and optionally `IDP-CI-UA-ID` (the confirming device): they are recorded in the security event.",
      tags: TAGS,
      auth: AUTH,
      params: ZQrParams,
      secretParams: ["QR_code"],
      response: { status: 204, description: decision === "confirm" ? "Confirmed: the waiting browser signs in" : "Refused: the waiting browser is told so" },
      errors: decision === "confirm" ? [...CODE_ERRORS, "qr.account_locked", "qr.client_not_allowed", "qr.session_required"] : [...CODE_ERRORS, "qr.client_not_allowed"],
    },
    async ({ ctx, params, request }) => {
      const device = request.headers.get(DEVICE_HEADER)?.trim().slice(0, 256) || undefined;
      await decideQrSignIn(ctx, params.QR_code, decision, device);
    },
  );
}

export const confirmQrRoute = decisionRoute("confirm");
export const refuseQrRoute = decisionRoute("refuse");

export const QR_SIGN_IN_ROUTES = [describeQrRoute, confirmQrRoute, refuseQrRoute];
