import { XMLParser } from "fast-xml-parser";
import type { TInputItem } from "../errors/app-error.ts";
import { decodeBase32, OTP_ALGORITHMS, type TOtpAlgorithm } from "./otp-codes.ts";
import { MAX_SEED_BYTES, MIN_SEED_BYTES } from "./otp.schemas.ts";

/*
 * Device description files of hardware generators, as an administrator loads them:
 * - PSKC (RFC 6030), key packages with plain (unencrypted) secrets. A file with a DOCTYPE is refused
 *   before parsing, so no entity can be declared, expanded or fetched; only XML's five predefined
 *   entities mean anything.
 * - CSV, one generator a line: `serial,secret,algo,len,counter` (HOTP) or `serial,secret,algo,len,<period>s`
 *   (TOTP, e.g. `30s`). secret is base32, or hexadecimal after `hex:`. Empty lines, lines starting
 *   with `#` and a header line starting with `serial,` are skipped.
 */

export type TDeviceFormat = "pskc" | "csv";
export type TDeviceDef = { serial: string; kind: "hotp" | "totp"; seed: Uint8Array; algo: TOtpAlgorithm; digits: number; counter?: number; period?: number };
export type TParsedDevices = { devices: TDeviceDef[]; errors: TInputItem[] };

export const MAX_DEVICE_FILE_BYTES = 5 * 1024 * 1024;
export const MAX_DEVICES_PER_FILE = 20_000;
export const SERIAL = /^[A-Za-z0-9][A-Za-z0-9.-]{0,63}$/;

const PSKC_ALGORITHMS: Record<string, "hotp" | "totp"> = {
  "urn:ietf:params:xml:ns:keyprov:pskc:hotp": "hotp",
  "urn:ietf:params:xml:ns:keyprov:pskc#hotp": "hotp",
  "urn:ietf:params:xml:ns:keyprov:pskc:totp": "totp",
  "urn:ietf:params:xml:ns:keyprov:pskc#totp": "totp",
};

type TXml = Record<string, unknown>;
const text = (v: unknown): string | undefined => (typeof v === "string" || typeof v === "number" ? String(v).trim() : v && typeof v === "object" && "#text" in v ? text((v as TXml)["#text"]) : undefined);
const child = (v: unknown, ...path: string[]): unknown => path.reduce<unknown>((node, k) => (node && typeof node === "object" ? (node as TXml)[k] : undefined), v);

function checkDevice(d: Partial<TDeviceDef>, pos: string): TDeviceDef | TInputItem {
  const bad = (desc: string): TInputItem => ({ error: "wrong_value", desc, pos });
  if (!d.serial || !SERIAL.test(d.serial)) return bad("serial must be 1 to 64 letters, digits, dots or dashes");
  if (!d.seed || d.seed.length < MIN_SEED_BYTES || d.seed.length > MAX_SEED_BYTES) return bad(`${d.serial}: the secret must be ${MIN_SEED_BYTES} to ${MAX_SEED_BYTES} bytes`);
  if (!d.algo || !OTP_ALGORITHMS.includes(d.algo)) return bad(`${d.serial}: algorithm must be SHA1, SHA256 or SHA512`);
  if (!Number.isInteger(d.digits) || d.digits! < 4 || d.digits! > 16) return bad(`${d.serial}: code length must be 4 to 16`);
  if (d.kind === "hotp" && !(Number.isSafeInteger(d.counter) && d.counter! >= 0)) return bad(`${d.serial}: counter must be a whole number, 0 or more`);
  if (d.kind === "totp" && !(Number.isInteger(d.period) && d.period! >= 30 && d.period! <= 300)) return bad(`${d.serial}: period must be 30 to 300 seconds`);
  return d as TDeviceDef;
}

function collect(candidates: [Partial<TDeviceDef> | TInputItem, string][]): TParsedDevices {
  const out: TParsedDevices = { devices: [], errors: [] };
  const seen = new Set<string>();
  for (const [c, pos] of candidates) {
    const r = "error" in c ? c : checkDevice(c, pos);
    if ("error" in r) out.errors.push(r);
    else if (seen.has(r.serial)) out.errors.push({ error: "wrong_value", desc: `${r.serial}: serial listed twice`, pos });
    else {
      seen.add(r.serial);
      out.devices.push(r);
    }
  }
  if (candidates.length > MAX_DEVICES_PER_FILE) out.errors.unshift({ error: "wrong_value", desc: `at most ${MAX_DEVICES_PER_FILE} generators per file`, pos: "" });
  return out;
}

function pskcKey(pkg: TXml, key: TXml, pos: string): Partial<TDeviceDef> | TInputItem {
  const kind = PSKC_ALGORITHMS[String(key["@_Algorithm"] ?? "")];
  if (!kind) return { error: "wrong_value", desc: `unsupported algorithm ${String(key["@_Algorithm"] ?? "(none)")}: only HOTP and TOTP`, pos };
  const data = child(key, "Data");
  if (child(data, "Secret", "EncryptedValue") !== undefined) return { error: "wrong_value", desc: "encrypted key packages are not supported: export the file with plain values", pos };
  const secret = text(child(data, "Secret", "PlainValue"))?.replace(/\s+/g, "");
  const suite = text(child(key, "AlgorithmParameters", "Suite"))?.toUpperCase().replace(/^HMAC-/, "").replace("-", "");
  const length = child(key, "AlgorithmParameters", "ResponseFormat") as TXml | undefined;
  const counter = text(child(data, "Counter", "PlainValue"));
  const period = text(child(data, "TimeInterval", "PlainValue"));
  return {
    serial: text(child(pkg, "DeviceInfo", "SerialNo")) ?? (key["@_Id"] === undefined ? undefined : String(key["@_Id"])),
    kind,
    seed: secret && /^[A-Za-z0-9+/]+=*$/.test(secret) ? new Uint8Array(Buffer.from(secret, "base64")) : undefined,
    algo: (suite || "SHA1") as TOtpAlgorithm,
    digits: length?.["@_Length"] === undefined ? 6 : Number(length["@_Length"]),
    ...(kind === "hotp" ? { counter: counter === undefined ? 0 : Number(counter) } : { period: period === undefined ? 30 : Number(period) }),
  };
}

export function parsePskc(xml: string): TParsedDevices {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) return { devices: [], errors: [{ error: "wrong_value", desc: "a DOCTYPE or entity declaration is not allowed in a PSKC file", pos: "" }] };
  const parser = new XMLParser({
    ignoreAttributes: false, attributeNamePrefix: "@_", removeNSPrefix: true, processEntities: false, htmlEntities: false,
    parseTagValue: false, parseAttributeValue: false, maxNestedTags: 32,
    isArray: (name) => name === "KeyPackage" || name === "Key",
  });
  let doc: TXml;
  try {
    doc = parser.parse(xml, true) as TXml;
  } catch (e) {
    return { devices: [], errors: [{ error: "wrong_value", desc: `not well-formed XML: ${(e as Error).message.slice(0, 200)}`, pos: "" }] };
  }
  const container = child(doc, "KeyContainer") as TXml | undefined;
  if (!container) return { devices: [], errors: [{ error: "wrong_value", desc: "not a PSKC file: no KeyContainer", pos: "" }] };
  const packages = (container.KeyPackage as TXml[] | undefined) ?? [];
  const candidates: [Partial<TDeviceDef> | TInputItem, string][] = packages.flatMap((pkg, i) =>
    ((pkg.Key as TXml[] | undefined) ?? []).map((key, j) => [pskcKey(pkg, key, `KeyPackage[${i}].Key[${j}]`), `KeyPackage[${i}].Key[${j}]`] as [Partial<TDeviceDef> | TInputItem, string]),
  );
  if (!candidates.length) return { devices: [], errors: [{ error: "wrong_value", desc: "the file holds no key package", pos: "" }] };
  return collect(candidates);
}

function csvSecret(value: string): Uint8Array | undefined {
  if (/^hex:/i.test(value)) {
    const hex = value.slice(4);
    return /^([0-9a-fA-F]{2})+$/.test(hex) ? new Uint8Array(Buffer.from(hex, "hex")) : undefined;
  }
  return decodeBase32(value);
}

export function parseCsv(csv: string): TParsedDevices {
  const candidates: [Partial<TDeviceDef> | TInputItem, string][] = [];
  csv.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    const pos = `line ${i + 1}`;
    if (!line || line.startsWith("#") || /^serial,/i.test(line)) return;
    const cells = line.split(",").map((c) => c.trim());
    if (cells.length !== 5) {
      candidates.push([{ error: "wrong_value", desc: "expected 5 fields: serial,secret,algo,len,counter (or period such as 30s)", pos }, pos]);
      return;
    }
    const [serial, secret, algo, len, last] = cells as [string, string, string, string, string];
    const totp = /^\d+s$/i.test(last);
    candidates.push([
      {
        serial, seed: csvSecret(secret), algo: algo.toUpperCase().replace("-", "") as TOtpAlgorithm, digits: /^\d+$/.test(len) ? Number(len) : NaN,
        ...(totp ? { kind: "totp" as const, period: Number(last.slice(0, -1)) } : { kind: "hotp" as const, counter: /^\d+$/.test(last) ? Number(last) : NaN }),
      },
      pos,
    ]);
  });
  if (!candidates.length) return { devices: [], errors: [{ error: "wrong_value", desc: "the file lists no generator", pos: "" }] };
  return collect(candidates);
}

export function parseDeviceFile(format: TDeviceFormat, content: string): TParsedDevices {
  if (Buffer.byteLength(content) > MAX_DEVICE_FILE_BYTES) return { devices: [], errors: [{ error: "wrong_value", desc: `a device file may be at most ${MAX_DEVICE_FILE_BYTES} bytes`, pos: "" }] };
  return format === "pskc" ? parsePskc(content) : parseCsv(content);
}
