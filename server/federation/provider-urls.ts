/**
 * Where a provider may live: https, or http on a loopback address only (a provider started beside the
 * service, as in tests and development). Anything else would send a client secret or a code in clear.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Why the URL cannot be a provider's, in words; undefined when it can. */
export function providerUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "not a URL";
  }
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && isLoopbackHost(url.hostname)) return undefined;
  return "https is required (http only on a loopback address)";
}
