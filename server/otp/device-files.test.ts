import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseCsv, parsePskc } from "./device-files.ts";

const RFC6030 = readFileSync(path.join(import.meta.dirname, "../../test/fixtures/otp/rfc6030-figure3.pskc.xml"), "utf8");
const SEED = new Uint8Array(Buffer.from("12345678901234567890", "ascii"));

describe("PSKC (RFC 6030)", () => {
  it("reads figure 3 of RFC 6030: serial, HOTP, 8 digits, counter 0", () => {
    expect(parsePskc(RFC6030)).toEqual({ devices: [{ serial: "987654321", kind: "hotp", seed: SEED, algo: "SHA1", digits: 8, counter: 0 }], errors: [] });
  });

  it("reads prefixed namespaces, TOTP with a suite and a time interval, and the key id when there is no serial", () => {
    const xml = `<pskc:KeyContainer Version="1.0" xmlns:pskc="urn:ietf:params:xml:ns:keyprov:pskc"><pskc:KeyPackage>
      <pskc:Key Id="T-1" Algorithm="urn:ietf:params:xml:ns:keyprov:pskc:totp"><pskc:AlgorithmParameters><pskc:Suite>HMAC-SHA256</pskc:Suite>
      <pskc:ResponseFormat Length="6" Encoding="DECIMAL"/></pskc:AlgorithmParameters><pskc:Data><pskc:Secret><pskc:PlainValue>MTIzNDU2Nzg5MDEyMzQ1Njc4OTA=</pskc:PlainValue></pskc:Secret>
      <pskc:TimeInterval><pskc:PlainValue>60</pskc:PlainValue></pskc:TimeInterval></pskc:Data></pskc:Key></pskc:KeyPackage></pskc:KeyContainer>`;
    expect(parsePskc(xml).devices).toEqual([{ serial: "T-1", kind: "totp", seed: SEED, algo: "SHA256", digits: 6, period: 60 }]);
  });

  it("refuses entity declarations before parsing, encrypted keys, other algorithms and broken XML", () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><KeyContainer>&b;</KeyContainer>`;
    expect(parsePskc(bomb).errors[0]!.desc).toMatch(/DOCTYPE/);
    const external = `<!DOCTYPE x SYSTEM "http://127.0.0.1:1/x.dtd"><KeyContainer/>`;
    expect(parsePskc(external).devices).toEqual([]);
    const encrypted = RFC6030.replace(/<PlainValue>MTIz[^<]*<\/PlainValue>/, "<EncryptedValue><CipherData/></EncryptedValue>");
    expect(parsePskc(encrypted).errors[0]!.desc).toMatch(/encrypted/);
    expect(parsePskc(RFC6030.replace("pskc:hotp", "pskc:ocra")).errors[0]!.desc).toMatch(/unsupported algorithm/);
    expect(parsePskc("<KeyContainer><KeyPackage>").errors[0]!.desc).toMatch(/XML/);
    expect(parsePskc("<Other/>").errors[0]!.desc).toMatch(/KeyContainer/);
  });
});

describe("CSV device files", () => {
  it("reads HOTP and TOTP lines with base32 or hex secrets, skipping comments and the header", () => {
    const csv = "serial,secret,algo,len,counter\n# a comment\nA-1,GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ,SHA1,6,5\r\nB.2,hex:3132333435363738393031323334353637383930,sha-256,8,30s\n\n";
    expect(parseCsv(csv)).toEqual({
      devices: [
        { serial: "A-1", kind: "hotp", seed: SEED, algo: "SHA1", digits: 6, counter: 5 },
        { serial: "B.2", kind: "totp", seed: SEED, algo: "SHA256", digits: 8, period: 30 },
      ],
      errors: [],
    });
  });

  it("names the line of each mistake", () => {
    const csv = ["A,GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ,SHA1,6", "B,GEZDGNBV,SHA1,6,0", "C,GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ,MD5,6,0", "D,GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ,SHA1,3,0",
      "E,GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ,SHA1,6,10s", "F,hex:zz,SHA1,6,0", "G,GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ,SHA1,6,0", "G,GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ,SHA1,6,0", "h_1,GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ,SHA1,6,0"].join("\n");
    const { devices, errors } = parseCsv(csv);
    expect(devices.map((d) => d.serial)).toEqual(["G"]);
    expect(errors.map((e) => e.pos)).toEqual(["line 1", "line 2", "line 3", "line 4", "line 5", "line 6", "line 8", "line 9"]);
  });
});
