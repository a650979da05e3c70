/**
 * The closed registry of error codes. Services throw `new AppError(code)`; renderers turn a code into
 * the body shape of the endpoint family (see render.ts). `type`/`error`/`desc` are the API's
 * values for the v3 shape; `oauth` is the RFC 6749 code used on OAuth endpoints.
 */
export type TErrorType =
  | "security_error"
  | "process_error"
  | "input_error"
  | "not_found_error"
  | "method_error"
  | "internal_error";

export type TErrorDef = {
  status: number;
  type: TErrorType;
  error: string;
  desc: string;
  oauth?: string;
};

const ERROR_DEFS = {
  /** No credentials were sent to an endpoint that requires them. */
  "auth.token_missing": { status: 401, type: "security_error", error: "bad_access_token", desc: "missing_access_token", oauth: "invalid_token" },
  /** The bearer token's exp has passed. */
  "auth.token_expired": { status: 401, type: "security_error", error: "bad_access_token", desc: "expired_access_token", oauth: "invalid_token" },
  /** The bearer token is malformed, has a bad signature, a foreign issuer or an unknown key. */
  "auth.token_invalid": { status: 401, type: "security_error", error: "bad_access_token", desc: "invalid_access_token", oauth: "invalid_token" },
  /** The bearer token was revoked before its expiry. */
  "auth.token_revoked": { status: 401, type: "security_error", error: "bad_access_token", desc: "revoked_access_token", oauth: "invalid_token" },
  /** The token holds none of the scopes the operation accepts (the API answers 401 here, not 403). */
  "auth.scope_missing": { status: 401, type: "security_error", error: "bad_access_token", desc: "missing_scopes", oauth: "insufficient_scope" },
  /** A user-mode token used on another user's subject. */
  "auth.wrong_subject": { status: 401, type: "security_error", error: "bad_access_token", desc: "wrong_subject" },
  /** A system token on a user-only operation or a user token on a system-only one. */
  "auth.wrong_mode": { status: 401, type: "security_error", error: "bad_access_token", desc: "wrong_token_mode", oauth: "invalid_token" },
  /** A user-mode change of factors (second factor, generators, security question, external accounts) with a sign-in older than IDP_REAUTH_MAX_AGE: sign the person in again (prompt=login or max_age) and use the new token. */
  "auth.reauth_required": { status: 403, type: "security_error", error: "reauthentication_required", desc: "this change needs a recent sign-in; sign the user in again and retry with the new token" },
  /** The same change by a user whose second factor is on, with a token from a sign-in that did not pass it. */
  "auth.second_factor_required": { status: 403, type: "security_error", error: "second_factor_required", desc: "this change needs a sign-in with the second factor" },
  /** HTTP Basic with an unknown client, a wrong REST password, or a client without one. */
  "auth.basic_invalid": { status: 401, type: "security_error", error: "invalid_credential", desc: "client_authentication_failed" },
  /** v1 HTTP Basic of a client that authenticated but is not allowed the operation: none of its system scopes is the operation's. */
  "auth.basic_not_allowed": { status: 401, type: "security_error", error: "access_denied", desc: "the client application is not allowed this operation" },
  /** v1/v2 HTTP Basic of a client that authenticated but lacks the operation's scope: the v2 access_denied of the API, not a Bearer challenge. */
  "auth.basic_scope_missing": { status: 403, type: "security_error", error: "access_denied", desc: "access_denied" },

  /** The body is not parseable in the declared content type. */
  "request.malformed": { status: 400, type: "input_error", error: "wrong_values", desc: "malformed_body", oauth: "invalid_request" },
  /** Fields fail validation; details travel as `errors[]` items. */
  "request.invalid_values": { status: 400, type: "input_error", error: "wrong_values", desc: "invalid_values", oauth: "invalid_request" },
  /** The Content-Type is not one the operation accepts. */
  "request.unsupported_media_type": { status: 415, type: "input_error", error: "wrong_values", desc: "unsupported_media_type", oauth: "invalid_request" },
  /** The path holds a percent escape that does not decode to UTF-8 (`%zz`, `%c0%af`); refused before routing. */
  "request.malformed_url": { status: 400, type: "input_error", error: "wrong_values", desc: "malformed_url", oauth: "invalid_request" },
  /** The body exceeds the request size limit. */
  "request.too_large": { status: 413, type: "input_error", error: "wrong_values", desc: "body_too_large", oauth: "invalid_request" },
  /** An RQL query parameter that does not parse or names an unknown field or a value of the wrong type; the item's params.position is the 0-based offset of the problem. */
  "rql.malformed": { status: 400, type: "input_error", error: "wrong_values", desc: "malformed_rql" },

  /** The path exists but not with this method (`Allow` lists those it has). */
  "route.method_not_allowed": { status: 405, type: "method_error", error: "method_not_allowed", desc: "method_not_allowed", oauth: "invalid_request" },
  /** No operation exists at this path. */
  "route.not_found": { status: 404, type: "not_found_error", error: "not_found", desc: "no_such_operation" },
  /** GET /metrics on a server without IDP_METRICS_TOKEN: the metrics are off, and the body says how to turn them on. */
  "metrics.off": { status: 404, type: "not_found_error", error: "not_found", desc: "metrics are off on this server: set IDP_METRICS_TOKEN (16 or more characters) and scrape with Authorization: Bearer <that token>" },

  /** RFC 6749 §5.2: missing, repeated or malformed parameter, or more than one authentication method. */
  "oauth.invalid_request": { status: 400, type: "input_error", error: "wrong_values", desc: "invalid_request", oauth: "invalid_request" },
  /** RFC 6749 §5.2: client authentication failed (unknown client, bad secret, disabled, none sent). */
  "oauth.invalid_client": { status: 401, type: "security_error", error: "invalid_client", desc: "invalid_client", oauth: "invalid_client" },
  /**
   * Too many failed client authentications for this client id or address: 429 with Retry-After. The
   * RFC 6749 code stays invalid_client, since that is what it is; a right secret is refused too until then.
   */
  "oauth.client_auth_throttled": { status: 429, type: "security_error", error: "too_many_attempts", desc: "too many failed client authentications", oauth: "invalid_client" },
  /** RFC 7591 §3.2.2: a metadata value of a dynamic registration is invalid or not allowed (software_id included). */
  "oauth.invalid_client_metadata": { status: 400, type: "input_error", error: "wrong_values", desc: "invalid_client_metadata", oauth: "invalid_client_metadata" },
  /** RFC 7591 §3.2.2: a redirect URI of a dynamic registration is not one its parent client has. */
  "oauth.invalid_redirect_uri": { status: 400, type: "input_error", error: "wrong_values", desc: "invalid_redirect_uri", oauth: "invalid_redirect_uri" },
  /** RFC 6749 §5.2: the client may not use this grant type. */
  "oauth.unauthorized_client": { status: 400, type: "security_error", error: "unauthorized_client", desc: "unauthorized_client", oauth: "unauthorized_client" },
  /** RFC 6749 §5.2: the grant type is not supported by this server. */
  "oauth.unsupported_grant_type": { status: 400, type: "input_error", error: "wrong_values", desc: "unsupported_grant_type", oauth: "unsupported_grant_type" },
  /** RFC 6749 §5.2: a requested scope is unknown, missing or not allowed for the client. */
  "oauth.invalid_scope": { status: 400, type: "input_error", error: "wrong_values", desc: "invalid_scope", oauth: "invalid_scope" },

  /** RFC 6749 §5.2: the authorization code or refresh token is invalid, expired, used, revoked, or another client's; or PKCE failed. */
  "oauth.invalid_grant": { status: 400, type: "input_error", error: "wrong_values", desc: "invalid_grant", oauth: "invalid_grant" },
  /** RFC 6749 §4.1.2.1: response_type is not "code". Sent to the client's redirect URI. */
  "oauth.unsupported_response_type": { status: 400, type: "input_error", error: "wrong_values", desc: "unsupported_response_type", oauth: "unsupported_response_type" },
  /** RFC 6749 §4.1.2.1: the user refused consent. Sent to the client's redirect URI. */
  "oauth.access_denied": { status: 403, type: "security_error", error: "access_denied", desc: "access_denied", oauth: "access_denied" },
  /** OIDC Core §3.1.2.6: prompt=none, and the user is not signed in (or max_age demands a new sign-in). */
  "oauth.login_required": { status: 400, type: "security_error", error: "login_required", desc: "login_required", oauth: "login_required" },
  /** OIDC Core §3.1.2.6: prompt=none, and the user has not consented to this client and scopes. */
  "oauth.consent_required": { status: 400, type: "security_error", error: "consent_required", desc: "consent_required", oauth: "consent_required" },
  /** OIDC Core §3.1.2.6: the `request` parameter (request objects) is not supported. */
  "oauth.request_not_supported": { status: 400, type: "input_error", error: "wrong_values", desc: "request_not_supported", oauth: "request_not_supported" },
  /** OIDC Core §3.1.2.6: the `request_uri` parameter is not supported. */
  "oauth.request_uri_not_supported": { status: 400, type: "input_error", error: "wrong_values", desc: "request_uri_not_supported", oauth: "request_uri_not_supported" },

  /** Authorization request without client_id, or with client_id or redirect_uri repeated: shown to the user, not redirected. */
  "authorize.invalid_request": { status: 400, type: "input_error", error: "wrong_values", desc: "invalid authorization request", oauth: "invalid_request" },
  /** Authorization request of an unknown or disabled client: shown to the user, not redirected. */
  "authorize.unknown_client": { status: 400, type: "input_error", error: "unknown_rp", desc: "unknown client", oauth: "invalid_request" },
  /** redirect_uri missing or not registered exactly for the client: shown to the user, never redirected to. */
  "authorize.redirect_uri_mismatch": { status: 400, type: "input_error", error: "wrong_values", desc: "redirect_uri mismatch", oauth: "invalid_request" },
  /** A login flow id that does not exist, or a flow that has finished. */
  "login.flow_not_found": { status: 404, type: "not_found_error", error: "unknown_flow", desc: "sign-in flow not found" },
  /** A login flow whose time ran out before the user finished. */
  "login.flow_expired": { status: 410, type: "process_error", error: "flow_expired", desc: "sign-in flow expired" },
  /** A sign-in form without the CSRF token of this flow and this browser's cookie. */
  "login.csrf_failed": { status: 403, type: "security_error", error: "csrf_failed", desc: "the form does not belong to this browser's sign-in" },
  /** Unknown account or wrong password (never told apart). */
  "login.invalid_credentials": { status: 400, type: "security_error", error: "invalid_credential", desc: "wrong identifier or password" },
  /** Too many failed sign-ins for the account or the address; Retry-After says when to try again. */
  "login.locked_out": { status: 429, type: "security_error", error: "too_many_attempts", desc: "too many sign-in attempts" },
  /** The account is locked (the `locked` attribute); said only after a right password. */
  "login.account_locked": { status: 403, type: "security_error", error: "account_locked", desc: "account locked" },
  /** The directory that checks the account's password has its entry disabled or locked. */
  "login.directory_disabled": { status: 403, type: "security_error", error: "account_locked", desc: "the account is disabled or locked in its directory" },
  /** The directory that checks the password cannot be reached; the attempt is not counted. */
  "login.directory_unavailable": { status: 503, type: "process_error", error: "directory_unavailable", desc: "the directory that checks this password cannot be reached" },
  /** The password was right, but password sign-in is turned off for the account (methodsLocked). */
  "login.password_locked": { status: 403, type: "security_error", error: "method_locked", desc: "password sign-in is turned off for this account" },
  /** The first method was right, but the account is locked for inactivity (an administrator unlocks it). */
  "login.inactivity_locked": { status: 403, type: "security_error", error: "inactivity_lock", desc: "account locked for inactivity" },
  /** A passkey answer at sign-in that was not accepted (unknown, not verified, spent, or a copied key's). */
  "login.passkey_refused": { status: 400, type: "security_error", error: "invalid_credential", desc: "the passkey was not accepted" },
  /** A sign-in by another method than a passkey where the application asked for one (acr_values=phr). */
  "login.passkey_required": { status: 400, type: "security_error", error: "passkey_required", desc: "the application asks for a sign-in with a passkey (acr_values=phr)" },
  /** A sign-in form with the identifier or the password left empty. */
  "login.missing_credentials": { status: 400, type: "input_error", error: "wrong_values", desc: "identifier and password are required" },
  /** RP-initiated logout: id_token_hint is not an ID token of this issuer. */
  "logout.invalid_hint": { status: 400, type: "input_error", error: "wrong_values", desc: "id_token_hint is not valid", oauth: "invalid_request" },
  /** RP-initiated logout: post_logout_redirect_uri is not registered for the client (or no client is known). */
  "logout.redirect_uri_mismatch": { status: 400, type: "input_error", error: "wrong_values", desc: "post_logout_redirect_uri mismatch", oauth: "invalid_request" },

  /** Import document or console input fails validation (details in `errors[]`). */
  "import.invalid_document": { status: 400, type: "input_error", error: "wrong_values", desc: "invalid_import_document" },
  /** A client application id that does not exist. */
  "client.not_found": { status: 404, type: "not_found_error", error: "unknown_rp", desc: "client application not found" },
  /** A client application with this id exists already. */
  "client.already_exists": { status: 400, type: "process_error", error: "client_exists", desc: "client application already exists" },
  /** idp-console and idp-portal belong to the service's own console and portal; the server keeps them as they must be. */
  "client.builtin": { status: 403, type: "process_error", error: "builtin_client", desc: "built-in client application: managed by the server, not editable" },

  /** An outbox message id that does not exist. */
  "outbox.not_found": { status: 404, type: "not_found_error", error: "not_found", desc: "outbox message not found" },
  /** Resend of an outbox message that was delivered already (a new code needs a new message). */
  "outbox.already_sent": { status: 409, type: "process_error", error: "already_sent", desc: "outbox message was sent already" },
  /** A console download (the events export) without the session of an active administrator. */
  "console.admin_required": { status: 401, type: "security_error", error: "unauthorized", desc: "sign in to the console as an administrator" },
  /** An administrator locking or deleting the account they are signed in to the console with: they would lock themselves out, or leave no administrator. */
  "console.own_account": { status: 409, type: "process_error", error: "own_account", desc: "an administrator cannot lock or delete the account they are signed in with" },
  /** The passkey policy requires administrators to have a passkey and this one has none: they enrol one in the portal first. */
  "console.passkey_required": { status: 403, type: "security_error", error: "passkey_required", desc: "add a passkey to your account (in your account's passkeys page) before using the console" },
  /** A console role without the grant a procedure needs (an auditor changing something, a user manager configuring the service). */
  "console.forbidden": { status: 403, type: "security_error", error: "forbidden", desc: "your console role does not allow this" },
  /** A user manager acting on an account that holds a console role: only an administrator may. */
  "console.privileged_account": { status: 403, type: "security_error", error: "forbidden", desc: "only an administrator may change an account that holds a console role" },
  /** Removing the administrator role from the last active administrator, or locking or deleting them (console or REST). */
  "console.last_admin": { status: 409, type: "process_error", error: "last_admin", desc: "the service must keep at least one active administrator" },

  /** No account with this subject (or the version id names none). */
  "user.not_found": { status: 404, type: "not_found_error", error: "unknown_user", desc: "user not found" },
  /** The instanceId is not the account's current version: it changed since it was read. Nothing was changed. */
  "user.stale_instance": { status: 409, type: "process_error", error: "stale_instance_id", desc: "the account changed since this instanceId was read; read it again" },
  /** No device (or browser) with this id among those the user signed in from. */
  "device.not_found": { status: 404, type: "not_found_error", error: "unknown_device", desc: "device not found" },
  /** No consent with this id among those the user gave. */
  "consent.not_found": { status: 404, type: "not_found_error", error: "unknown_acl", desc: "consent not found" },
  /** No QR sign-in with this code: never issued, replaced by a newer code, or its sign-in is over. */
  "qr.not_found": { status: 404, type: "not_found_error", error: "unknown_qr_code", desc: "QR code not found" },
  /** The QR code's time ran out before anyone confirmed it. */
  "qr.expired": { status: 410, type: "process_error", error: "qr_code_expired", desc: "QR code expired" },
  /** The QR code was confirmed or refused already: a code works once. */
  "qr.already_used": { status: 409, type: "process_error", error: "qr_code_used", desc: "QR code was confirmed or refused already" },
  /** A locked account cannot sign a browser in by QR code. */
  "qr.account_locked": { status: 403, type: "security_error", error: "account_locked", desc: "account locked" },
  /** A confirmation with a token of no live browser session (ended, expired, or a token without one): a QR sign-in must inherit a real sign-in. */
  "qr.session_required": { status: 403, type: "security_error", error: "session_required", desc: "confirm with a token from a sign-in that is still active" },
  /** A confirmation through an application that is not first-party: only the service's own applications may vouch for a sign-in elsewhere. */
  "qr.client_not_allowed": { status: 403, type: "security_error", error: "client_not_allowed", desc: "only first-party applications may read, confirm or refuse QR sign-ins" },
  /** No pending contact confirmation with this state (unknown, already confirmed, or another user's). */
  "contact.not_found": { status: 404, type: "not_found_error", error: "unknown_confirmation", desc: "confirmation not found" },
  /** A new code was asked for before the resend cooldown passed (Retry-After says when). */
  "contact.resend_too_soon": { status: 429, type: "process_error", error: "resend_too_soon", desc: "a new code can be requested later" },
  /** An attribute definition that does not exist. */
  "attribute.not_found": { status: 404, type: "not_found_error", error: "unknown_attribute", desc: "attribute not found" },
  /** A built-in attribute (sub, locked, phone_number, email) cannot be removed or retyped. */
  "attribute.builtin": { status: 400, type: "process_error", error: "builtin_attribute", desc: "built-in attribute" },
  /** A v1 alias that already names another attribute. */
  "attribute.alias_taken": { status: 400, type: "process_error", error: "alias_taken", desc: "alias already used" },

  /** Registration data fails validation (errMsg per field, in the caller's language). */
  "registration.invalid": { status: 400, type: "input_error", error: "wrong_values", desc: "invalid registration data" },
  /** The password violates the password policy (field "password"). */
  "registration.password_policy": { status: 400, type: "input_error", error: "wrong_values", desc: "password_policy_violated" },
  /** A unique value (sub, e-mail, phone…) is already used by another account; each field is named. */
  "registration.conflict": { status: 409, type: "input_error", error: "wrong_values", desc: "contact_use_violation" },
  /** No registration with this context, or it expired. */
  "registration.not_found": { status: 404, type: "not_found_error", error: "unknown_context", desc: "registration not found" },
  /** bindDynClient names a client id that is not a free instance registered under the calling client. Nothing is created. */
  "registration.unknown_dyn_client": { status: 400, type: "process_error", error: "unknown_dyn_client", desc: "unknown dynamic client" },
  /** {ctx}/register while IDP_SELF_SIGNUP is off: the page does not exist. */
  "signup.disabled": { status: 404, type: "not_found_error", error: "not_found", desc: "self sign-up is turned off" },
  /** A sign-up flow id that does not exist, or a sign-up that has finished. */
  "signup.flow_not_found": { status: 404, type: "not_found_error", error: "unknown_flow", desc: "sign-up flow not found" },
  /** A sign-up whose flow or registration ran out before the codes were entered. */
  "signup.flow_expired": { status: 410, type: "process_error", error: "flow_expired", desc: "sign-up flow expired" },
  /** {ctx}/login/recover while IDP_RECOVERY is off: the pages do not exist. */
  "recovery.disabled": { status: 404, type: "not_found_error", error: "not_found", desc: "password recovery is turned off" },
  /** The console's recovery message, to a channel on which the account has no confirmed address. */
  "recovery.no_confirmed_contact": { status: 409, type: "process_error", error: "no_confirmed_contact", desc: "the account has no confirmed address on this channel" },
  /** The console's passkey link, for an account whose second factor is on: the link would sign in with two factors on the strength of a message alone. */
  "recovery.passkey_link_second_factor": { status: 409, type: "process_error", error: "second_factor_on", desc: "this account's second factor is on: a passkey link would skip it; send a password link, or turn the second factor off first" },
  /** An administrator's link asked for passkey options after it expired, was used, or stopped holding (a newer link, a new password, a changed address). */
  "recovery.link_spent": { status: 410, type: "process_error", error: "link_expired", desc: "the link has expired or was used already" },

  /** Password change in user mode: the current password is wrong (counted by the sign-in brute-force limit). */
  "password.invalid_credential": { status: 401, type: "security_error", error: "invalid_credential", desc: "wrong current password" },
  /** Too many wrong current passwords (shared with sign-in's limit); Retry-After says when to try again. */
  "password.locked_out": { status: 429, type: "security_error", error: "too_many_attempts", desc: "too many wrong passwords" },
  /** The new password violates the password policy: one item per rule, `params.rule` names it. */
  "password.policy_violated": { status: 400, type: "input_error", error: "wrong_values", desc: "password_policy_violated" },
  /** The account's password is kept by its organisation's directory, which does not let this service change it (or not this way). */
  "password.kept_in_directory": { status: 409, type: "process_error", error: "password_in_directory", desc: "this account's password is kept in its organisation's directory: change it there" },
  /** The directory that keeps the account's password cannot be reached; nothing was changed. */
  "password.directory_unavailable": { status: 503, type: "process_error", error: "directory_unavailable", desc: "the directory that keeps this password cannot be reached" },
  /** The password store refused the change (rule id_store): another change of the same password committed first. A single item. */
  "password.store_refused": { status: 400, type: "input_error", error: "password_policy_violated", desc: "the password store refused the change" },
  /** The account has no security question. */
  "secqsn.not_set": { status: 404, type: "not_found_error", error: "security_question_not_found", desc: "security question not set" },
  /** A security question check failed; desc says which part: question or answer did not match, or none is set. */
  "secqsn.wrong_answer": { status: 400, type: "process_error", error: "wrong_security_answer", desc: "security answer not match" },
  /** Too many failed security question checks for the account; Retry-After says when to try again. */
  "secqsn.locked_out": { status: 429, type: "security_error", error: "too_many_attempts", desc: "too many failed security question checks" },
  /** POST …/state named a state other than untouchable: the others follow from sign-ins and the inactivity rule. */
  "state.not_assignable": { status: 400, type: "input_error", error: "wrong_values", desc: "only untouchable can be assigned" },
  /** Unlocking an account that is not in inactivityLock. */
  "state.not_locked": { status: 400, type: "process_error", error: "not_inactivity_locked", desc: "the account is not locked for inactivity" },
  /** A one-time code that is not the generator's current one (or not digits of its length). */
  "otp.wrong_code": { status: 400, type: "process_error", error: "wrong_otp_code", desc: "wrong one-time code" },
  /** QR flow stage 2 with a secret this service did not hand out to this account, or one that expired or was bound already. */
  "otp.unknown_secret": { status: 400, type: "process_error", error: "unknown_otp_secret", desc: "the secret was not handed out for this user by GET …/totps/attach/qr, or it expired; ask for a new one" },
  /** No generator with this id among the account's. */
  "otp.not_found": { status: 404, type: "not_found_error", error: "unknown_otp_generator", desc: "OTP generator not found" },
  /** GET …/totps of an account without generators. */
  "otp.none_bound": { status: 404, type: "not_found_error", error: "no_otp_generators", desc: "no OTP generator is bound to the account" },
  /** Removing the last generator while requiredFactor is 2 would leave the user unable to sign in. */
  "otp.last_second_factor": { status: 400, type: "process_error", error: "last_sf_method", desc: "this is the account's last second-factor method and requiredFactor is 2: turn the second factor off first (POST …/auth {\"requiredFactor\": null}) or bind another generator" },
  /** v1 device binding: no loaded device file has this serial. */
  "otp.unknown_device": { status: 400, type: "process_error", error: "unknown_otp_device", desc: "no generator with this serial was loaded" },
  /** v1 device binding: the generator is bound to another account. */
  "otp.device_bound": { status: 400, type: "process_error", error: "otp_device_bound", desc: "the generator is bound to another account" },
  /** A passkey answer for a challenge not handed out here for this account or sign-in, already used, or expired. */
  "passkeys.challenge_unknown": { status: 400, type: "process_error", error: "passkey_challenge_unknown", desc: "the passkey answer is not for a challenge handed out here, or it was used or expired: start again" },
  /** The authenticator's answer does not verify (origin, RP id, signature, user verification …). */
  "passkeys.not_verified": { status: 400, type: "security_error", error: "passkey_not_verified", desc: "the passkey could not be verified" },
  /** An assertion by a credential no account has (it was removed, or never registered here). */
  "passkeys.unknown_credential": { status: 400, type: "security_error", error: "unknown_passkey", desc: "this passkey is not registered here" },
  /** A registration of a credential id some account has already. */
  "passkeys.already_registered": { status: 409, type: "process_error", error: "passkey_registered", desc: "this passkey is registered already" },
  /** The signature counter did not move forward: the authenticator may have been cloned. */
  "passkeys.counter_regressed": { status: 400, type: "security_error", error: "passkey_counter_regressed", desc: "the passkey's signature counter went backwards: it may have been copied" },
  /** The account's last second-factor method (no generator besides it) while requiredFactor is 2. */
  "passkeys.last_second_factor": { status: 400, type: "process_error", error: "last_sf_method", desc: "this is the account's last second-factor method and requiredFactor is 2: turn the second factor off first (POST …/auth {\"requiredFactor\": null}) or add another passkey or a generator" },
  /** "Sign in without a password" for an account without a passkey: there would be no way in. */
  "passkeys.none_for_passwordless": { status: 400, type: "process_error", error: "no_passkey", desc: "add a passkey before giving up the password" },
  /** "Sign in without a password" for an account that has none already. */
  "passkeys.no_password": { status: 409, type: "process_error", error: "no_password", desc: "the account has no password already" },
  /** The last passkey of an account without a password: there would be no way in. */
  "passkeys.last_sign_in_method": { status: 400, type: "process_error", error: "last_sign_in_method", desc: "this is the account's only way to sign in: set a password (\"Forgot password?\") or add another passkey first" },
  /** No passkey with this id among the account's. */
  "passkeys.not_found": { status: 404, type: "not_found_error", error: "unknown_passkey", desc: "passkey not found" },
  /** The passkey policy does not offer passkeys now: none can be added (the ones registered keep working). */
  "passkeys.not_offered": { status: 403, type: "process_error", error: "passkeys_not_offered", desc: "adding passkeys is turned off by the administrator" },
  /** The answer says its authenticator is attached in a way the passkey policy does not allow (built in, or a roaming key). */
  "passkeys.attachment_refused": { status: 400, type: "process_error", error: "passkey_attachment_refused", desc: "this kind of authenticator is not allowed here: use the other kind (built into the device, or a security key)" },
  /** Direct attestation is required and the answer's is missing, not checked against the metadata, or of a model not allowed. */
  "passkeys.attestation_refused": { status: 400, type: "security_error", error: "passkey_attestation_refused", desc: "this authenticator model is not allowed here" },
  /** The uploaded FIDO metadata is not an MDS3 BLOB or payload, is too large, or its signature does not verify (items say why). */
  "passkeys.metadata_invalid": { status: 400, type: "input_error", error: "wrong_values", desc: "the file is not usable FIDO metadata" },
  /** Requiring passkeys of administrators by one who has none: they would be shut out of the console at once. */
  "passkeys.enrol_first": { status: 409, type: "process_error", error: "passkey_enrol_first", desc: "add a passkey to your own account first, then require them of administrators" },
  /** requiredFactor 2 for an account without a bound OTP generator or a passkey (item error has_not_sf_methods). */
  "auth_modes.no_second_factor_method": { status: 400, type: "input_error", error: "wrong_values", desc: "has_not_sf_methods" },
  /** A sensitive portal change with a sign-in older than IDP_REAUTH_MAX_AGE: the portal asks to sign in again (prompt=login). */
  "portal.reauth_required": { status: 403, type: "security_error", error: "reauth_required", desc: "confirm it's you: sign in again to make this change" },

  /** A grant, revoke or listing names a right that is not defined (params.right). Nothing changes. */
  "rights.unknown_right": { status: 400, type: "process_error", error: "unknown_right", desc: "right not defined" },
  /** A grant, revoke or listing names a user who does not exist (params.userId). */
  "rights.unknown_user": { status: 400, type: "process_error", error: "unknown_user", desc: "user not found" },
  /** A grant, revoke or listing names a group that does not exist, or not in the profile named (params.grpId). */
  "rights.unknown_group": { status: 400, type: "process_error", error: "unknown_group", desc: "group not found" },
  /** A grant, revoke or listing names an application that does not exist (params.rpId). */
  "rights.unknown_rp": { status: 400, type: "process_error", error: "unknown_rp", desc: "application not found" },
  /** The right's definition does not allow this kind of subject or object (params.right, params.subjectKind or params.objectKind). */
  "rights.kind_not_allowed": { status: 400, type: "process_error", error: "right_kind_not_allowed", desc: "the right is not defined for this kind of subject or object" },
  /** GET or DELETE of a right definition that does not exist. */
  "rights.definition_not_found": { status: 404, type: "not_found_error", error: "unknown_right", desc: "right not defined" },
  /** DELETE of a definition that is still granted, without force=true (params.grants counts the grants). */
  "rights.definition_in_use": { status: 409, type: "process_error", error: "right_in_use", desc: "the right is still granted; revoke it or delete with force=true" },
  /** The console's "New right" names a right that is defined already (the REST PUT replaces instead). */
  "rights.definition_exists": { status: 409, type: "process_error", error: "right_exists", desc: "right already defined" },
  /** v2 master and subordinate accounts: a user token acting for another subject, a system token granting, or a master without the right on the subordinate account. */
  "rights.access_denied": { status: 403, type: "security_error", error: "access_denied", desc: "access_denied" },
  /** change_password and change_attrs: cannot be deleted, and their kinds stay user on user. */
  "rights.builtin": { status: 400, type: "process_error", error: "builtin_right", desc: "built-in right: cannot be deleted or retyped" },
  /** A group that does not exist, or not in the profile the path names (params.grpId); also a group a user token may not read. */
  "group.not_found": { status: 404, type: "not_found_error", error: "unknown_group", desc: "group not found" },
  /** A group profile that does not exist (params.profile). */
  "group.profile_not_found": { status: 404, type: "not_found_error", error: "unknown_group_profile", desc: "group profile not found" },
  /** POST of a group whose id is taken, in any profile (params.grpId). */
  "group.exists": { status: 409, type: "process_error", error: "group_exists", desc: "a group with this id exists" },
  /** PUT with an instanceId that is no longer the group's (params.instanceId): read it again. */
  "group.stale_instance": { status: 409, type: "process_error", error: "stale_instance_id", desc: "the group changed since this instanceId was read; read it again" },
  /** A member to add is not an account (params.userId). Nothing changes. */
  "group.unknown_user": { status: 400, type: "process_error", error: "unknown_user", desc: "user not found" },
  /** No external provider with this fpType and fpName (params.fpType, params.fpName). Nothing changes. */
  "federation.provider_not_found": { status: 404, type: "not_found_error", error: "unknown_fp", desc: "external provider not found" },
  /** The console creates a provider whose fpType and fpName are taken already. */
  "federation.provider_exists": { status: 400, type: "process_error", error: "fp_exists", desc: "an external provider with this type and name exists already" },
  /** Deleting a provider that accounts are still bound to, without force (params.bindings counts them). */
  "federation.provider_in_use": { status: 409, type: "process_error", error: "fp_in_use", desc: "accounts are still bound to this provider; unbind them or delete with force" },
  /** The external account (provider, sid) is bound to another user already: one external account binds to one user. */
  "federation.sid_bound": { status: 409, type: "process_error", error: "fa_bound_to_other_user", desc: "this external account is bound to another user" },
  /** A user-mode token binding an external account by its sid: nothing proves the caller controls that account; user mode binds through POST /api/v3/users/current/fa/bind. */
  "federation.bind_proof_required": { status: 403, type: "security_error", error: "access_denied", desc: "in user mode an external account is bound through POST /api/v3/users/current/fa/bind, which proves the user controls it" },
  /** The user has no binding of this provider and sid. */
  "federation.binding_not_found": { status: 404, type: "not_found_error", error: "unknown_fa", desc: "external account binding not found" },
  /** The callback's state is unknown, used already or expired (or the v2 binding's handle is): start again. Nothing changes. */
  "federation.auth_request_not_found": { status: 400, type: "process_error", error: "unknown_fa_request", desc: "the request to the external provider is unknown, used or expired; start again" },
  /** The external provider refused the authorization (its `error=`), or its answer failed validation (params.reason). */
  "federation.provider_refused": { status: 400, type: "process_error", error: "fp_refused", desc: "the external provider did not confirm the account" },
  /** The external provider cannot be reached or answered out of protocol (params.reason); try again later. */
  "federation.provider_unavailable": { status: 502, type: "internal_error", error: "fp_unavailable", desc: "the external provider cannot be reached or answered unexpectedly" },
  /** fedToken: the provider does not remember tokens, or no token is stored for the user's accounts there. */
  "federation.token_not_found": { status: 404, type: "not_found_error", error: "token_not_found", desc: "no stored token of this external provider" },
  /** fedToken: the stored token was stale and the provider refused its refresh (revoked); it was dropped. */
  "federation.token_refresh_refused": { status: 404, type: "not_found_error", error: "token_not_found", desc: "the external provider refused to refresh the stored token; it was dropped, the user must sign in with the provider again" },
  /** The console's "New profile" names a profile that exists already (params.profile). */
  "group.profile_exists": { status: 409, type: "process_error", error: "group_profile_exists", desc: "a group profile with this name exists" },
  /** Deleting a profile that still has groups (params.profile, params.groups counts them). Nothing changes. */
  "group.profile_in_use": { status: 409, type: "process_error", error: "group_profile_in_use", desc: "the profile still has groups; delete them first" },
  /**
   * A signing-key rotation by a process whose IDP_SECRET_KEY did not seal the key in force (a secret
   * key being rolled out): the servers could not open the new key. Finish the secret-key rotation first.
   */
  "keys.secret_key_mismatch": { status: 409, type: "process_error", error: "secret_key_mismatch", desc: "this process's IDP_SECRET_KEY did not seal the signing key in force; finish the secret-key rotation first" },
  /** The database cannot be reached. */
  "db.unavailable": { status: 503, type: "internal_error", error: "service_unavailable", desc: "database_unreachable", oauth: "temporarily_unavailable" },
  /** No database connection came free in time for a transaction (a burst); Retry-After says when to try again. */
  "db.busy": { status: 503, type: "internal_error", error: "service_unavailable", desc: "database_busy", oauth: "temporarily_unavailable" },
  /** Anything unexpected; the body carries only a request id, the log carries the cause. */
  internal: { status: 500, type: "internal_error", error: "internal_error", desc: "unexpected error; quote the requestId when reporting it", oauth: "server_error" },
  /** A SAML message or metadata document was refused before anything was read from it: not well-formed, too large or deep, or holding a DOCTYPE, an entity, a comment or a processing instruction. */
  "saml.xml_refused": { status: 400, type: "input_error", error: "saml_xml_refused", desc: "the SAML document is not accepted" },
  /** A SAML message's XML signature or Redirect-binding signature is missing where required, not made by a registered key, or does not cover the message as its only signed element. */
  "saml.signature_invalid": { status: 400, type: "security_error", error: "saml_signature_invalid", desc: "the SAML message's signature does not verify" },
  /** A service provider's metadata (or its settings typed by hand) cannot be used: not SAML 2.0, no HTTP-POST assertion consumer service, an endpoint that is not https, a certificate that is not RSA. */
  "saml.metadata_invalid": { status: 400, type: "input_error", error: "saml_metadata_invalid", desc: "the service provider's metadata is not accepted" },
  /** An AuthnRequest or LogoutRequest names an issuer that is not a registered, enabled service provider. */
  "saml.unknown_sp": { status: 400, type: "input_error", error: "saml_unknown_sp", desc: "the service provider is not registered here" },
  /** A SAML request is not one we can answer: not SAML 2.0, no ID, too old or from the future, addressed elsewhere, or asking for another binding. */
  "saml.request_invalid": { status: 400, type: "input_error", error: "saml_request_invalid", desc: "the SAML request cannot be answered" },
  /** The request asks for an assertion consumer service the service provider did not register: the response is never sent there. */
  "saml.acs_not_registered": { status: 400, type: "security_error", error: "saml_acs_not_registered", desc: "the assertion consumer service is not registered for this service provider" },
  /** The service provider sent a request ID it used before: each request is answered once. */
  "saml.request_replayed": { status: 400, type: "security_error", error: "saml_request_replayed", desc: "this request was answered already" },
  /** A service provider's id or entity ID is taken (by another provider or an OAuth application). */
  "saml.sp_exists": { status: 409, type: "process_error", error: "saml_sp_exists", desc: "an application with this id or entity ID exists already" },
  /** No SAML service provider has this id. */
  "saml.sp_not_found": { status: 404, type: "not_found_error", error: "saml_sp_not_found", desc: "SAML application not found" },
  /** No directory has this id. */
  "directory.not_found": { status: 404, type: "not_found_error", error: "directory_not_found", desc: "directory not found" },
  /** A directory added in the console has an id another directory has (checked by the insert itself, so two racing adds get this too). */
  "directory.exists": { status: 409, type: "process_error", error: "directory_exists", desc: "a directory with this id exists already" },
  /** A directory's settings cannot be used: a URL that would send passwords in the clear, a filter that is not one, a CA that is not PEM, attribute rules that clash. The item names the field. */
  "directory.settings_invalid": { status: 400, type: "input_error", error: "directory_settings_invalid", desc: "the directory's settings are not accepted" },
  /** Only a synchronised, enabled directory is synchronised. */
  "directory.not_synchronised": { status: 409, type: "process_error", error: "directory_not_synchronised", desc: "the directory is not synchronised, or is switched off" },
  /** One synchronisation per directory at a time, across every instance. */
  "directory.sync_running": { status: 409, type: "process_error", error: "directory_sync_running", desc: "a synchronisation of this directory is running" },
} as const satisfies Record<string, TErrorDef>;

export type TErrorCode = keyof typeof ERROR_DEFS;
export const ERROR_CODES: Record<TErrorCode, TErrorDef> = ERROR_DEFS;
