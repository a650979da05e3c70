import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SAML, type SamlConfig } from "@node-saml/node-saml";

/*
 * Service providers for the SAML tests: @node-saml/node-saml, a library nobody here wrote, with RSA
 * keys and self-signed certificates made by the openssl command line (not by the code under test).
 */

export type TSpKeys = { cert: string; key: string; certFile: string; keyFile: string };

/** A fresh RSA key and a self-signed certificate for it, as PEM text and files. */
export function makeSpKeys(cn = "sp.test", bits = 2048): TSpKeys {
  const dir = mkdtempSync(path.join(tmpdir(), "saml-sp-"));
  const keyFile = path.join(dir, "sp.key");
  const certFile = path.join(dir, "sp.pem");
  execFileSync("openssl", ["req", "-x509", "-newkey", `rsa:${bits}`, "-nodes", "-subj", `/CN=${cn}`, "-days", "2", "-keyout", keyFile, "-out", certFile], { stdio: "ignore" });
  return { cert: readFileSync(certFile, "utf8"), key: readFileSync(keyFile, "utf8"), certFile, keyFile };
}

/**
 * A node-saml service provider that signs its requests with `keys` (SHA-256 signatures and digests:
 * node-saml's defaults are SHA-1). `idpCert` may be a placeholder where only requests are made.
 */
export function newServiceProvider(opts: { entityId: string; acsUrl: string; entryPoint: string; keys: TSpKeys; idpCert?: string | string[] } & Partial<SamlConfig>): SAML {
  const { entityId, acsUrl, keys, idpCert, ...rest } = opts;
  return new SAML({
    issuer: entityId,
    callbackUrl: acsUrl,
    idpCert: idpCert ?? keys.cert,
    privateKey: keys.key,
    signatureAlgorithm: "sha256",
    digestAlgorithm: "sha256",
    // node-saml deflates POST-binding requests too unless told not to, which that binding does not allow.
    skipRequestCompression: rest.authnRequestBinding === "HTTP-POST",
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: true,
    ...rest,
  });
}

/** The base64 value of the form field `name` in node-saml's auto-submitting POST form. */
export function formField(html: string, name: string): string {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!m) throw new Error(`no ${name} in the form`);
  return m[1]!.replace(/&#x2F;/g, "/").replace(/&#x3D;/g, "=").replace(/&#x2B;/g, "+").replace(/&amp;/g, "&");
}
