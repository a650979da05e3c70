import { AppError } from "../../errors/app-error.ts";
import { readLimited } from "../../federation/discovery.service.ts";
import { providerUrlProblem } from "../../federation/provider-urls.ts";
import { OutboundRefused, outboundFetch } from "../../http/outbound.ts";

/*
 * A service provider's metadata fetched from the URL an administrator typed, under the rules for
 * every such URL (http/outbound.ts): https (http only on loopback), no private address unless
 * IDP_OUTBOUND_ALLOW names it, no redirect followed, a time and size limit.
 */

const MAX_METADATA = 512 * 1024;
const TIMEOUT_MS = 10_000;

const refused = (why: string): never => {
  throw new AppError("saml.metadata_invalid", { desc: `the service provider's metadata cannot be fetched: ${why}` });
};

export async function fetchSpMetadata(url: string): Promise<string> {
  const problem = providerUrlProblem(url);
  if (problem) refused(problem);
  let res: Response;
  try {
    res = await outboundFetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: "application/samlmetadata+xml, application/xml;q=0.9, text/xml;q=0.8" } });
  } catch (e) {
    return refused(e instanceof OutboundRefused ? e.message : "the address cannot be reached");
  }
  if (res.status !== 200) {
    await res.body?.cancel();
    refused(`the address answered ${res.status}`);
  }
  try {
    return await readLimited(res, MAX_METADATA);
  } catch (e) {
    return refused((e as Error).message);
  }
}
