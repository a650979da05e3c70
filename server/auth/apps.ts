/**
 * The service's own web applications. Each signs people in through the service's OpenID Connect
 * endpoints like any relying party, as a built-in first-party client (server/clients/builtin-clients.ts),
 * and keeps its own next-auth session cookie, so the console can be firewalled off without the portal.
 */
export const AUTH_APPS = {
  console: {
    clientId: "idp-console",
    name: "Identity console",
    /** Where a signed-in administrator lands. */
    home: "/console/dashboard",
    /** The sign-in page, where next-auth's errors and RP-initiated logout send the browser. */
    signIn: "/console/sign-in",
  },
  portal: {
    clientId: "idp-portal",
    name: "Account",
    home: "/account",
    // The portal's layout shows the sign-in panel itself wherever a visitor has no session.
    signIn: "/account",
  },
} as const;

export type TAuthApp = keyof typeof AUTH_APPS;

export const AUTH_APP_NAMES = Object.keys(AUTH_APPS) as TAuthApp[];

/** The app a next-auth provider id (= its client id) belongs to. */
export function appOfProvider(providerId: string | undefined): TAuthApp | undefined {
  return AUTH_APP_NAMES.find((app) => AUTH_APPS[app].clientId === providerId);
}

/** The built-in clients (idp-console, idp-portal): the server keeps them, nobody edits them. */
export function isBuiltinClient(clientId: string): boolean {
  return appOfProvider(clientId) !== undefined;
}
