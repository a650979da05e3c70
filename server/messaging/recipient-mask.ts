/**
 * A recipient as logs and audit records show it: enough to tell messages apart, not enough to
 * collect addresses ("a***@example.com", "+7******67").
 */
export function maskRecipient(to: string): string {
  const at = to.lastIndexOf("@");
  if (at > 0) return `${to[0]}***${to.slice(at)}`;
  if (to.length <= 4) return "***";
  return `${to.slice(0, 2)}${"*".repeat(to.length - 4)}${to.slice(-2)}`;
}

/** A transport's error text with the recipient masked, for the log. */
export function maskIn(text: string, to: string): string {
  return to ? text.split(to).join(maskRecipient(to)) : text;
}
