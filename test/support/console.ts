/** The `name=value` pairs a response sets, as a Cookie header. */
function cookiesOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** Signs in to the console of the server at `baseUrl` the way its form does; returns the session cookie. */
export async function consoleSignIn(baseUrl: string, login: string, password: string): Promise<string> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookiesOf(csrf) },
    body: new URLSearchParams({ csrfToken, login, password, json: "true" }),
  });
  const session = res.headers.getSetCookie().find((c) => c.includes("next-auth.session-token="));
  if (!session) throw new Error(`console sign-in failed with ${res.status}`);
  return session.split(";")[0]!;
}

/** Calls a console tRPC mutation with a session cookie; returns the procedure's answer. */
export async function consoleMutation(baseUrl: string, cookie: string, procedure: string, input: unknown): Promise<any> {
  const res = await fetch(`${baseUrl}/api/trpc/${procedure}`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(input),
  });
  const body = (await res.json()) as { result?: { data: unknown }; error?: unknown };
  if (!res.ok || !body.result) throw new Error(`${procedure} answered ${res.status}: ${JSON.stringify(body.error)}`);
  return body.result.data;
}
