import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/*
 * xmlsec1 (Debian's xmlsec1 package, libxmlsec1 over OpenSSL): an XML signature implementation that
 * is not the one we sign with, run from the command line. CI installs it (.ci/run) and the tests
 * require it there; elsewhere a test that needs it says so and skips.
 */

let found: boolean | undefined;
export function hasXmlsec1(): boolean {
  if (found === undefined) {
    try {
      execFileSync("xmlsec1", ["--version"], { stdio: "ignore" });
      found = true;
    } catch {
      found = false;
    }
  }
  if (!found && process.env.CI) throw new Error("xmlsec1 is required on CI (apt-get install xmlsec1)");
  return found;
}

/**
 * Runs `xmlsec1 --verify` over `xml` with `certificatePem` as the only trusted key. `idAttr` names the
 * element whose ID attribute a same-document reference points at ("urn:…:metadata:EntityDescriptor").
 * Returns whether it verified and what xmlsec1 printed.
 */
export function xmlsec1Verify(xml: string, certificatePem: string, idAttr: string, nodeXpath?: string): { ok: boolean; output: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "xmlsec-"));
  writeFileSync(path.join(dir, "doc.xml"), xml);
  writeFileSync(path.join(dir, "trusted.pem"), certificatePem);
  const [ns, name] = [idAttr.slice(0, idAttr.lastIndexOf(":")), idAttr.slice(idAttr.lastIndexOf(":") + 1)];
  const args = ["--verify", "--enabled-reference-uris", "same-doc", "--pubkey-cert-pem", "trusted.pem", "--id-attr:ID", `${ns}:${name}`, ...(nodeXpath ? ["--node-xpath", nodeXpath] : []), "doc.xml"];
  const r = spawnSync("xmlsec1", args, { cwd: dir, encoding: "utf8" });
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

/** Runs `xmlsec1 --decrypt` over `xml` with the private key in `keyFile`; the decrypted document and what xmlsec1 printed. */
export function xmlsec1Decrypt(xml: string, keyFile: string): { ok: boolean; output: string; decrypted: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "xmlsec-"));
  writeFileSync(path.join(dir, "doc.xml"), xml);
  const r = spawnSync("xmlsec1", ["--decrypt", "--privkey-pem", keyFile, "--output", "out.xml", "doc.xml"], { cwd: dir, encoding: "utf8" });
  let decrypted = "";
  try {
    decrypted = readFileSync(path.join(dir, "out.xml"), "utf8");
  } catch {
    // Nothing decrypted: the output says why.
  }
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}`, decrypted };
}
