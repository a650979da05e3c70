"use client";

/**
 * Starts a sign-in of console or portal at the service's own authorization endpoint through
 * next-auth: it takes a CSRF token, creates the state, PKCE and nonce cookies and answers with the
 * authorization URL, where the browser goes. `params` go into the authorization request
 * (`prompt: "login"` to sign in as someone else).
 */
export async function startSignIn(contextPath: string, providerId: string, callbackUrl: string, params?: Record<string, string>): Promise<void> {
  const base = `${contextPath}/api/auth`;
  const csrf = (await (await fetch(`${base}/csrf/${encodeURIComponent(providerId)}`)).json()) as { csrfToken?: string };
  if (!csrf.csrfToken) throw new Error("no CSRF token");
  const query = params ? `?${new URLSearchParams(params)}` : "";
  const res = await fetch(`${base}/signin/${encodeURIComponent(providerId)}${query}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: csrf.csrfToken, callbackUrl, json: "true" }),
  });
  const { url } = (await res.json()) as { url?: string };
  if (!res.ok || !url) throw new Error(`sign-in could not start (${res.status})`);
  window.location.assign(url);
}
