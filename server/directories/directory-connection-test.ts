import { unsealFor } from "../crypto/keys.ts";
import type { TDirectory } from "./directories.repository.ts";
import { attributesToRead, binaryAttributes, catalogAttributesOf, firstText, stableIdOf } from "./directory-entries.ts";
import { directoryEndpoint } from "./directory-url.ts";
import { asService, DirectoryUnavailable, type TLdapProblem } from "./ldap-client.ts";

/*
 * "Test connection": what a directory's settings amount to before they are saved, step by step:
 * the directory reached (and over which TLS), the service's bind, a search of the base DN with the
 * user filter for a few entries, and what one of them would become here (its login, its stable id,
 * the catalog attributes the rules map). Nothing is written; a failure is a step's answer, not an
 * error, and no answer repeats the bind password.
 */

/** How many entries the search asks for: enough to show that the filter finds people, few enough for any directory. */
export const TEST_ENTRY_LIMIT = 5;

export type TTestProblem = TLdapProblem | "no_entries" | "no_login" | "no_id";

export type TTestStep = {
  step: "connect" | "bind" | "search" | "sample";
  ok: boolean;
  /** Why it failed (or, for the sample, what it lacks). */
  problem?: TTestProblem;
  /** The directory's or the TLS library's own words, for the administrator. */
  detail?: string;
};

export type TConnectionTest = {
  ok: boolean;
  /** The steps that were run, in order: a failed one is the last. */
  steps: TTestStep[];
  endpoint: { host: string; port: number; tls: "ldaps" | "starttls" | "none" };
  /** The entries the search found, at most TEST_ENTRY_LIMIT; `more` when there are others. */
  found?: { count: number; more: boolean };
  sample?: { dn: string; login: string | null; externalId: string | null; attributes: Record<string, unknown> };
};

const STEPS = ["connect", "bind", "search"] as const;

/** The steps up to a failure at `stage`: those before it worked. */
function failedAt(e: DirectoryUnavailable, redact: (text: string) => string): TTestStep[] {
  const at = e.stage === "work" ? 2 : STEPS.indexOf(e.stage);
  return [...STEPS.slice(0, at).map((step) => ({ step, ok: true })), { step: STEPS[at]!, ok: false, problem: e.problem, detail: redact(e.message) }];
}

/** Runs the test with a directory's settings (its bind password sealed, as stored). */
export async function testDirectoryConnection(d: TDirectory): Promise<TConnectionTest> {
  const endpoint = directoryEndpoint(d.url, d.startTls);
  if ("problem" in endpoint) return { ok: false, endpoint: { host: "", port: 0, tls: "none" }, steps: [{ step: "connect", ok: false, problem: "url", detail: endpoint.problem }] };
  const where = { host: endpoint.host, port: endpoint.port, tls: endpoint.secure ? "ldaps" : d.startTls ? "starttls" : "none" } as const;
  // A server may quote what it was sent in its message; the password is cut out of anything shown.
  const password = unsealFor("directory-secrets", d.bindPassword);
  const redact = (text: string) => (password ? text.split(password).join("…") : text);
  try {
    const entries = await asService(d, async (client) => {
      const { searchEntries } = await client.search(d.baseDn, { scope: "sub", filter: d.userFilter, attributes: attributesToRead(d), explicitBufferAttributes: binaryAttributes(d), sizeLimit: TEST_ENTRY_LIMIT + 1 });
      return searchEntries;
    });
    const found = { count: Math.min(entries.length, TEST_ENTRY_LIMIT), more: entries.length > TEST_ENTRY_LIMIT };
    const steps: TTestStep[] = STEPS.map((step) => ({ step, ok: true }));
    const entry = entries[0];
    if (!entry) return { ok: false, endpoint: where, found, steps: [...steps, { step: "sample", ok: false, problem: "no_entries" }] };
    const sample = { dn: entry.dn, login: firstText(entry, d.loginAttribute) ?? null, externalId: stableIdOf(entry, d.idAttribute) ?? null, attributes: catalogAttributesOf(entry, d.attributeMap) };
    const lacks = sample.login === null ? "no_login" : sample.externalId === null ? "no_id" : undefined;
    return { ok: !lacks, endpoint: where, found, sample, steps: [...steps, { step: "sample", ok: !lacks, ...(lacks ? { problem: lacks } : {}) }] };
  } catch (e) {
    if (!(e instanceof DirectoryUnavailable)) throw e;
    return { ok: false, endpoint: where, steps: failedAt(e, redact) };
  }
}
