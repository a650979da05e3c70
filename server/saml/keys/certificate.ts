import { createHash, webcrypto } from "node:crypto";

/*
 * The SAML signing key pair and the self-signed certificate that carries its public half: SAML
 * publishes keys as X.509 certificates, and service providers pin the certificate, not a CA, so a
 * self-signed one is what every IdP hands out. RSA, because it is what every SAML stack verifies.
 */

/**
 * @peculiar/x509, loaded on first use: it needs the Reflect metadata polyfill evaluated before it,
 * an order static imports do not promise once bundled, and a server that never speaks SAML never needs it.
 */
async function x509Library() {
  await import("reflect-metadata");
  const x509 = await import("@peculiar/x509");
  x509.cryptoProvider.set(webcrypto as unknown as Crypto);
  return x509;
}
const RSA = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256", modulusLength: 3072, publicExponent: new Uint8Array([1, 0, 1]) } as const;
// Long, because many service providers refuse an expired certificate yet cannot be told of a new one
// but by hand; rotation, not expiry, is how the key is changed.
const VALID_YEARS = 10;

export type TSamlKeyMaterial = { kid: string; certificatePem: string; privateKeyPem: string };

function pem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der).toString("base64").replace(/.{1,64}/g, "$&\n");
  return `-----BEGIN ${label}-----\n${b64}-----END ${label}-----\n`;
}

/** A new key pair and its certificate, named after the host that publishes it. */
export async function newSamlKeyMaterial(host: string): Promise<TSamlKeyMaterial> {
  const x509 = await x509Library();
  const keys = (await webcrypto.subtle.generateKey(RSA, true, ["sign", "verify"])) as CryptoKeyPair;
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(notBefore.getTime() + VALID_YEARS * 365.25 * 86_400_000);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(16))).toString("hex").replace(/^[89a-f]/, "1"),
    name: `CN=${host.replace(/[,=+<>#;"\\]/g, "")} SAML signing`,
    notBefore,
    notAfter,
    keys,
    signingAlgorithm: RSA,
  });
  const der = cert.rawData;
  return {
    kid: createHash("sha256").update(Buffer.from(der)).digest("hex"),
    certificatePem: pem("CERTIFICATE", der),
    privateKeyPem: pem("PRIVATE KEY", await webcrypto.subtle.exportKey("pkcs8", keys.privateKey)),
  };
}

/** The base64 body of a PEM certificate, as `ds:X509Certificate` holds it. */
export function certificateBody(certificatePem: string): string {
  return certificatePem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
}
