import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { makeCertificates } from "./tls-certs.ts";

/*
 * A real OpenLDAP server (Debian's slapd) for the directory tests, started by the test on loopback
 * with a configuration and data of its own: an mdb database under dc=example,dc=org, TLS from a test
 * CA on both ldaps:// and ldap:// (StartTLS), the ppolicy overlay (lockout after three failures),
 * and a read-only service account. CI installs slapd and ldap-utils (.ci/run).
 */

export const BASE_DN = "dc=example,dc=org";
export const READER = { dn: `cn=reader,${BASE_DN}`, password: "reader-password" };
export const ROOT = { dn: `cn=admin,${BASE_DN}`, password: "admin-password" };

export type TSlapd = {
  /** ldap:// on loopback (StartTLS offered), and ldaps:// with the test CA's certificate. */
  ldapUrl: string;
  ldapsUrl: string;
  caPem: string;
  /** A CA that did not issue the server's certificate. */
  otherCaPem: string;
  /** Applies LDIF changes as the directory's administrator (ldapmodify, so `changetype:` lines work). */
  modify: (ldif: string) => void;
  stop: () => Promise<void>;
  /** Starts it again, with the same data, on the same ports. */
  start: () => Promise<void>;
  close: () => Promise<void>;
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

/** The tree every directory test starts from; `people` are added under ou=people. */
function baseLdif(people: string): string {
  return `dn: ${BASE_DN}
objectClass: dcObject
objectClass: organization
o: Example
dc: example

dn: ${READER.dn}
objectClass: simpleSecurityObject
objectClass: organizationalRole
cn: reader
userPassword: ${READER.password}

dn: ou=people,${BASE_DN}
objectClass: organizationalUnit
ou: people

dn: ou=groups,${BASE_DN}
objectClass: organizationalUnit
ou: groups

dn: ou=policies,${BASE_DN}
objectClass: organizationalUnit
ou: policies

dn: cn=default,ou=policies,${BASE_DN}
objectClass: pwdPolicy
objectClass: person
cn: default
sn: policy
pwdAttribute: userPassword
pwdLockout: TRUE
pwdMaxFailure: 3
pwdInHistory: 3

${people}`;
}

/** An inetOrgPerson under ou=people, as LDIF. */
export function person(p: { uid: string; password: string; givenName: string; sn: string; mail?: string; mobile?: string }): string {
  return [
    `dn: uid=${p.uid},ou=people,${BASE_DN}`,
    "objectClass: inetOrgPerson",
    `uid: ${p.uid}`,
    `cn: ${p.givenName} ${p.sn}`,
    `givenName: ${p.givenName}`,
    `sn: ${p.sn}`,
    ...(p.mail ? [`mail: ${p.mail}`] : []),
    ...(p.mobile ? [`mobile: ${p.mobile}`] : []),
    `userPassword: ${p.password}`,
    "",
    "",
  ].join("\n");
}

/** A directory's settings (as the import document or the console give them) that reach this slapd over ldaps:// as the reader; `over` changes any. */
export function directoryOf<T extends object = object>(slapd: Pick<TSlapd, "ldapsUrl" | "caPem">, over?: T) {
  return { id: "corp", name: "Corporate directory", url: slapd.ldapsUrl, caCert: slapd.caPem, bindDn: READER.dn, bindPassword: READER.password, baseDn: `ou=people,${BASE_DN}`, ...over };
}

/** A groupOfNames under ou=groups, as LDIF; `members` are DNs (people's or other groups'). */
export function groupOfNames(cn: string, members: string[]): string {
  return [`dn: ${groupDn(cn)}`, "objectClass: groupOfNames", `cn: ${cn}`, ...members.map((m) => `member: ${m}`), "", ""].join("\n");
}

export const groupDn = (cn: string) => `cn=${cn},ou=groups,${BASE_DN}`;
export const personDn = (uid: string) => `uid=${uid},ou=people,${BASE_DN}`;

/** `people` (and any other entries, such as groups) are added to the tree every test starts from. */
export async function startSlapd(people: string): Promise<TSlapd> {
  const dir = mkdtempSync(path.join(tmpdir(), "idp-slapd-"));
  const certs = makeCertificates({ clients: {}, otherCaCn: "Other CA client", expiredCn: "expired" });
  const [ldapPort, ldapsPort] = [await freePort(), await freePort()];
  mkdirSync(path.join(dir, "db"));
  const conf = path.join(dir, "slapd.conf");
  writeFileSync(
    conf,
    `include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include /etc/ldap/schema/nis.schema
modulepath /usr/lib/ldap
moduleload back_mdb
moduleload ppolicy
pidfile ${dir}/slapd.pid
TLSCACertificateFile ${certs.ca.certFile}
TLSCertificateFile ${certs.server.certFile}
TLSCertificateKeyFile ${certs.server.keyFile}
database mdb
suffix "${BASE_DN}"
rootdn "${ROOT.dn}"
rootpw ${ROOT.password}
directory ${dir}/db
maxsize 1073741824
index objectClass,uid,entryUUID,member eq
# A directory's default size limit (500) also caps a paged search in total: the service account is let off, as the guide says.
limits dn.exact="${READER.dn}" size.soft=unlimited size.hard=unlimited size.prtotal=unlimited
overlay ppolicy
ppolicy_default "cn=default,ou=policies,${BASE_DN}"
ppolicy_use_lockout
access to attrs=userPassword by self write by anonymous auth by * none
access to * by dn.exact="${READER.dn}" read by self read by * none
`,
  );
  execFileSync("/usr/sbin/slapadd", ["-f", conf], { input: baseLdif(people), stdio: ["pipe", "ignore", "pipe"] });
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn("/usr/sbin/slapd", ["-f", conf, "-h", `ldap://127.0.0.1:${ldapPort}/ ldaps://127.0.0.1:${ldapsPort}/`, "-d", "0"], { stdio: "ignore" });
    const end = Date.now() + 10_000;
    while (!(await canConnect(ldapPort)) || !(await canConnect(ldapsPort))) {
      if (Date.now() > end || child.exitCode !== null) throw new Error("slapd did not start");
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once("exit", () => resolve());
      running.kill("SIGTERM");
    });
  };
  await start();
  return {
    ldapUrl: `ldap://127.0.0.1:${ldapPort}`,
    ldapsUrl: `ldaps://127.0.0.1:${ldapsPort}`,
    caPem: certs.ca.cert,
    otherCaPem: certs.otherCa.cert,
    modify: (ldif) => execFileSync("ldapmodify", ["-H", `ldap://127.0.0.1:${ldapPort}`, "-x", "-D", ROOT.dn, "-w", ROOT.password], { input: ldif, stdio: ["pipe", "ignore", "pipe"] }),
    stop,
    start,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
      rmSync(certs.dir, { recursive: true, force: true });
    },
  };
}
