import { execFileSync } from "node:child_process";
import { generateSync } from "otplib";

/*
 * Codes from implementations of RFC 4226/6238 that are not ours (the server uses otpauth), so a test
 * that binds or signs in with them proves interoperability, not agreement with ourselves: otplib
 * always, and oathtool (Debian's oathtool package) as well where it is installed, each code checked
 * against the other. `npm test` needs nothing beyond npm; CI installs oathtool for the extra check.
 */

type TAlgo = "SHA1" | "SHA256" | "SHA512";

let oathtoolFound: boolean | undefined;
function hasOathtool(): boolean {
  if (oathtoolFound === undefined) {
    try {
      execFileSync("oathtool", ["--version"], { stdio: "ignore" });
      oathtoolFound = true;
    } catch {
      oathtoolFound = false;
    }
  }
  return oathtoolFound;
}

/** `fromLibrary` is the answer; oathtool, where installed, must agree with it. */
function crossChecked(fromLibrary: string[], oathtoolArgs: () => string[]): string[] {
  if (!hasOathtool()) return fromLibrary;
  const fromOathtool = execFileSync("oathtool", oathtoolArgs(), { encoding: "utf8" }).trim().split("\n");
  if (fromOathtool.join(",") !== fromLibrary.join(",")) {
    throw new Error(`otplib and oathtool disagree: ${fromLibrary.join(",")} against ${fromOathtool.join(",")}`);
  }
  return fromLibrary;
}

/** The TOTP code of `base32` at `at` (default now). */
export function independentTotp(base32: string, opts: { algo?: TAlgo; digits?: number; period?: number; at?: Date } = {}): string {
  const algo = opts.algo ?? "SHA1";
  const digits = opts.digits ?? 6;
  const period = opts.period ?? 30;
  // One instant for both implementations: "now" read twice could fall on either side of a step.
  const at = opts.at ?? new Date();
  const code = generateSync({
    secret: base32.replace(/\s+/g, "").toUpperCase(),
    algorithm: algo.toLowerCase() as "sha1" | "sha256" | "sha512",
    digits: digits as 6 | 7 | 8,
    period,
    epoch: Math.floor(at.getTime() / 1000),
  });
  const stamp = at.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
  return crossChecked([code], () => [`--totp=${algo.toLowerCase()}`, "-b", "-d", String(digits), "-s", `${period}s`, "-N", stamp, base32.replace(/\s+/g, "")])[0]!;
}

/** `count` consecutive HOTP codes starting at `counter`; the key in base32, or in hex with `hex`. */
export function independentHotp(base32OrHex: string, counter: number, count = 1, opts: { hex?: boolean; digits?: number } = {}): string[] {
  const digits = opts.digits ?? 6;
  const secret = opts.hex ? new Uint8Array(Buffer.from(base32OrHex, "hex")) : base32OrHex.replace(/\s+/g, "").toUpperCase();
  const codes = Array.from({ length: count }, (_, i) => generateSync({ secret, strategy: "hotp", counter: counter + i, digits: digits as 6 | 7 | 8 }));
  return crossChecked(codes, () => ["--hotp", "-c", String(counter), "-w", String(count - 1), "-d", String(digits), ...(opts.hex ? [] : ["-b"]), base32OrHex]);
}
