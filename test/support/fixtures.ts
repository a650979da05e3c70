import { readFileSync } from "node:fs";
import path from "node:path";

export const IMPORT_FIXTURE = path.join(process.cwd(), "test", "fixtures", "import.json");

/** The fixture's clients, with their plaintext secrets, as the tests authenticate with them (a public client has none). */
export const fixture = JSON.parse(readFileSync(IMPORT_FIXTURE, "utf8")) as {
  clients: { id: string; secret: string; restPassword?: string; scopes: string[] }[];
};

/** The API suite's additions for external providers (test/api/global-setup.ts merges them into the server's import). */
export const FEDERATION_FIXTURE = path.join(process.cwd(), "test", "fixtures", "import-federation.json");
const federationClients = (JSON.parse(readFileSync(FEDERATION_FIXTURE, "utf8")) as typeof fixture).clients;

export function fixtureClient(id: string) {
  const c = fixture.clients.find((x) => x.id === id) ?? federationClients.find((x) => x.id === id);
  if (!c) throw new Error(`no fixture client ${id}`);
  return c;
}

/** RFC 6749 §2.3.1 Basic credentials: id and secret form-urlencoded, then base64. */
export function oauthBasic(id: string, secret: string): string {
  const enc = (s: string) => new URLSearchParams({ s }).toString().slice(2);
  return "Basic " + Buffer.from(`${enc(id)}:${enc(secret)}`).toString("base64");
}
