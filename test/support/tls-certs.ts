import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** A certificate and its key, as PEM text and as files. */
export type TCert = { cert: string; key: string; certFile: string; keyFile: string };

const openssl = (dir: string, args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });

function read(dir: string, name: string): TCert {
  const certFile = path.join(dir, `${name}.pem`);
  const keyFile = path.join(dir, `${name}.key`);
  return { cert: readFileSync(certFile, "utf8"), key: readFileSync(keyFile, "utf8"), certFile, keyFile };
}

function newKey(dir: string, name: string) {
  openssl(dir, ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", `${name}.key`]);
}

function ca(dir: string, name: string): TCert {
  newKey(dir, name);
  openssl(dir, ["req", "-x509", "-new", "-key", `${name}.key`, "-subj", `/CN=${name}`, "-days", "2", "-out", `${name}.pem`,
    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"]);
  return read(dir, name);
}

/** A certificate for `cn` issued by `issuer`; `days` -1 makes one that has already expired. */
function issue(dir: string, issuer: string, name: string, cn: string, ext: string[], days = 2): TCert {
  newKey(dir, name);
  openssl(dir, ["req", "-new", "-key", `${name}.key`, "-subj", `/CN=${cn}`, "-out", `${name}.csr`]);
  writeFileSync(path.join(dir, `${name}.ext`), `${ext.join("\n")}\n`);
  openssl(dir, ["x509", "-req", "-in", `${name}.csr`, "-CA", `${issuer}.pem`, "-CAkey", `${issuer}.key`, "-CAcreateserial",
    "-days", String(days), "-extfile", `${name}.ext`, "-out", `${name}.pem`]);
  return read(dir, name);
}

const CLIENT_EXT = ["basicConstraints=CA:FALSE", "keyUsage=critical,digitalSignature", "extendedKeyUsage=clientAuth"];

/**
 * Generates, with openssl, in a fresh temporary directory: a CA and a second, unrelated CA; a server
 * certificate for 127.0.0.1/localhost; and client certificates for the given CNs, plus one for
 * `otherCaCn` from the other CA and an expired one for `expiredCn`.
 */
export function makeCertificates<K extends string>(opts: { clients: Record<K, string>; otherCaCn: string; expiredCn: string }) {
  const dir = mkdtempSync(path.join(tmpdir(), "idp-tls-"));
  const mainCa = ca(dir, "ca");
  const otherCa = ca(dir, "other-ca");
  const server = issue(dir, "ca", "server", "localhost", [
    "basicConstraints=CA:FALSE", "keyUsage=critical,digitalSignature", "extendedKeyUsage=serverAuth", "subjectAltName=IP:127.0.0.1,DNS:localhost",
  ]);
  const clients = Object.fromEntries(Object.entries<string>(opts.clients).map(([name, cn]) => [name, issue(dir, "ca", name, cn, CLIENT_EXT)])) as Record<K, TCert>;
  return {
    dir,
    ca: mainCa,
    otherCa,
    server,
    clients,
    otherCaClient: issue(dir, "other-ca", "other-ca-client", opts.otherCaCn, CLIENT_EXT),
    expiredClient: issue(dir, "ca", "expired-client", opts.expiredCn, CLIENT_EXT, -1),
  };
}
