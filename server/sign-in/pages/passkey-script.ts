import { pageLink } from "../../html/layout.ts";

/** The script's address: the one script a sign-in page that offers a passkey runs, allowed by exactly this URL. */
export const passkeyScriptPath = () => pageLink("/login/passkey/script", {});

/**
 * The sign-in pages' passkey button, served as a file of the service's own (the pages allow scripts
 * from 'self' only, and run no inline one). It shows the button only where WebAuthn exists, asks the
 * service for options bound to this sign-in, lets the browser ask the person's device, and submits
 * the answer in the page's form, so the service answers with a normal redirect. The conversions are
 * the base64url <-> ArrayBuffer that WebAuthn's JSON forms need.
 *
 * Where the page has a field marked `autocomplete="username webauthn"` and the browser supports
 * conditional mediation, the same request is also made quietly on load: the browser then offers the
 * person's passkeys in that field's autofill, and picking one signs in. The button first cancels that
 * quiet request (a browser runs one WebAuthn request at a time); its options replace the earlier ones.
 *
 * Elements marked `data-webauthn-only` (the sign-up's "with a passkey instead") are shown where
 * WebAuthn exists, and stay hidden without it or without JavaScript.
 *
 * A form marked `data-ceremony="create"` (an administrator's passkey link, a sign-up with a passkey)
 * registers a new passkey instead: the same options-then-answer round, with navigator.credentials.create().
 */
export const PASSKEY_SCRIPT = `(() => {
  if (!window.PublicKeyCredential || !navigator.credentials) return;
  for (const offer of document.querySelectorAll("[data-webauthn-only]")) offer.hidden = false;
  const form = document.getElementById("passkey-form");
  if (!form) return;
  const create = form.dataset.ceremony === "create";
  const button = form.querySelector("button");
  const status = form.querySelector("[role=status]");
  const bytes = (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4)), (c) => c.charCodeAt(0));
  const text = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  const options = async () => {
    const res = await fetch(form.dataset.options, { method: "POST", credentials: "same-origin", body: new URLSearchParams({ csrf_token: form.elements.csrf_token.value }) });
    if (!res.ok) throw new Error("no options");
    const o = await res.json();
    const listed = (list) => (list || []).map((c) => ({ type: "public-key", id: bytes(c.id), transports: c.transports }));
    if (create) {
      return { ...o, challenge: bytes(o.challenge), user: { ...o.user, id: bytes(o.user.id) }, excludeCredentials: listed(o.excludeCredentials) };
    }
    const allowCredentials = listed(o.allowCredentials);
    return { challenge: bytes(o.challenge), rpId: o.rpId, timeout: o.timeout, userVerification: o.userVerification, allowCredentials };
  };
  const submit = (credential) => {
    const r = credential.response;
    const response = create
      ? { clientDataJSON: text(r.clientDataJSON), attestationObject: text(r.attestationObject), transports: r.getTransports ? r.getTransports() : undefined }
      : { clientDataJSON: text(r.clientDataJSON), authenticatorData: text(r.authenticatorData), signature: text(r.signature), userHandle: r.userHandle ? text(r.userHandle) : undefined };
    form.elements.answer.value = JSON.stringify({
      id: credential.id,
      rawId: text(credential.rawId),
      type: credential.type,
      response,
      clientExtensionResults: {},
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
    });
    form.submit();
  };
  // The quiet request's options are awaited before the button asks for its own: asked later, they
  // would replace the button's challenge.
  let quiet, quietOptions;
  const field = document.querySelector('input[autocomplete~="webauthn"]');
  if (field && !create && PublicKeyCredential.isConditionalMediationAvailable) {
    PublicKeyCredential.isConditionalMediationAvailable().then(async (available) => {
      if (!available || quiet) return;
      quiet = new AbortController();
      quietOptions = options();
      const publicKey = await quietOptions;
      if (quiet.signal.aborted) return;
      const credential = await navigator.credentials.get({ mediation: "conditional", signal: quiet.signal, publicKey });
      if (credential && !quiet.signal.aborted) submit(credential);
    }).catch(() => {});
  }
  button.hidden = false;
  button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = "";
    quiet = quiet || new AbortController();
    quiet.abort();
    await quietOptions?.catch(() => {});
    try {
      const publicKey = await options();
      submit(await (create ? navigator.credentials.create({ publicKey }) : navigator.credentials.get({ publicKey })));
    } catch {
      button.disabled = false;
      status.textContent = form.dataset.cancelled;
    }
  });
})();
`;
