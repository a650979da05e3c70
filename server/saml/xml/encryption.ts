import * as xmlenc from "xml-encryption";

/*
 * Assertion encryption (XML Encryption 1.1): the signed assertion is encrypted with a fresh AES-GCM
 * key, and that key with the service provider's RSA certificate. RSA-OAEP with MGF1 and SHA-1 is the
 * key transport every SAML library decrypts (node-saml's bundled xml-encryption 3 knows no other);
 * OAEP with SHA-1 is not weakened by SHA-1's collisions. CBC ciphers are not offered: they are open
 * to padding-oracle attacks on the service provider's side.
 */

export const ASSERTION_CIPHERS = { "aes256-gcm": "http://www.w3.org/2009/xmlenc11#aes256-gcm", "aes128-gcm": "http://www.w3.org/2009/xmlenc11#aes128-gcm" } as const;
export type TAssertionCipher = keyof typeof ASSERTION_CIPHERS;

/** `signedAssertion` as an `EncryptedAssertion` for the holder of `certificatePem`. */
export function encryptAssertion(signedAssertion: string, certificatePem: string, cipher: TAssertionCipher): Promise<string> {
  const options = {
    rsa_pub: certificatePem,
    pem: certificatePem,
    encryptionAlgorithm: ASSERTION_CIPHERS[cipher],
    keyEncryptionAlgorithm: "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
    keyEncryptionDigest: "sha1",
  } as xmlenc.EncryptOptions;
  return new Promise((resolve, reject) =>
    xmlenc.encrypt(signedAssertion, options, (err, encrypted) => (err ? reject(err) : resolve(`<saml:EncryptedAssertion>${encrypted}</saml:EncryptedAssertion>`))),
  );
}
