/**
 * The sign-in page's passkey button, served as a file of the service's own (the page allows scripts
 * from 'self' only, and runs no inline one). It shows the button only where WebAuthn exists, asks the
 * service for options bound to this sign-in, lets the browser ask the person's device, and submits
 * the answer in the page's form, so the service answers with a normal redirect. The conversions are
 * the base64url <-> ArrayBuffer that WebAuthn's JSON forms need.
 */
export const PASSKEY_SCRIPT = `(() => {
  const form = document.getElementById("passkey-form");
  if (!form || !window.PublicKeyCredential || !navigator.credentials) return;
  const button = form.querySelector("button");
  const status = form.querySelector("[role=status]");
  const bytes = (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4)), (c) => c.charCodeAt(0));
  const text = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  button.hidden = false;
  button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = "";
    try {
      const res = await fetch(form.dataset.options, { method: "POST", credentials: "same-origin", body: new URLSearchParams({ csrf_token: form.elements.csrf_token.value }) });
      if (!res.ok) throw new Error("no options");
      const o = await res.json();
      const credential = await navigator.credentials.get({ publicKey: { challenge: bytes(o.challenge), rpId: o.rpId, timeout: o.timeout, userVerification: o.userVerification, allowCredentials: [] } });
      const r = credential.response;
      form.elements.answer.value = JSON.stringify({
        id: credential.id,
        rawId: text(credential.rawId),
        type: credential.type,
        response: { clientDataJSON: text(r.clientDataJSON), authenticatorData: text(r.authenticatorData), signature: text(r.signature), userHandle: r.userHandle ? text(r.userHandle) : undefined },
        clientExtensionResults: {},
        authenticatorAttachment: credential.authenticatorAttachment || undefined,
      });
      form.submit();
    } catch {
      button.disabled = false;
      status.textContent = form.dataset.cancelled;
    }
  });
})();
`;
