import { execFileSync } from "node:child_process";

/*
 * Codes from oathtool (Debian package oathtool): an implementation of RFC 4226/6238 that is not ours,
 * so a test that binds or signs in with them proves interoperability, not agreement with ourselves.
 */

export function oathTotp(base32: string, opts: { algo?: "SHA1" | "SHA256" | "SHA512"; digits?: number; period?: number; at?: Date } = {}): string {
  const args = [`--totp=${(opts.algo ?? "SHA1").toLowerCase()}`, "-b", "-d", String(opts.digits ?? 6), "-s", `${opts.period ?? 30}s`];
  if (opts.at) args.push("-N", opts.at.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC"));
  return execFileSync("oathtool", [...args, base32], { encoding: "utf8" }).trim();
}

/** `count` consecutive HOTP codes starting at `counter`. */
export function oathHotp(base32OrHex: string, counter: number, count = 1, opts: { hex?: boolean; digits?: number } = {}): string[] {
  const args = ["--hotp", "-c", String(counter), "-w", String(count - 1), "-d", String(opts.digits ?? 6)];
  if (!opts.hex) args.push("-b");
  return execFileSync("oathtool", [...args, base32OrHex], { encoding: "utf8" }).trim().split("\n");
}
