// Real peers for the delivery tests: an SMTP server and an HTTP webhook listener on loopback.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export type TReceivedMail = { from: string; to: string[]; subject: string; text: string; headers: Record<string, string> };

export type TSmtpPeer = { port: number; url: string; received: TReceivedMail[]; close(): Promise<void> };

function decodeQuotedPrintable(s: string): Buffer {
  const bytes = s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, "latin1");
}

/** RFC 2047 encoded words (=?UTF-8?B?…?= / ?Q?), as nodemailer writes non-ASCII subjects. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_m, _charset: string, enc: string, data: string) =>
      (enc.toUpperCase() === "B" ? Buffer.from(data, "base64") : decodeQuotedPrintable(data.replace(/_/g, " "))).toString("utf8"),
    );
}

/** A single-part text message, decoded the way a mail client would. */
export function parseMail(raw: string): Omit<TReceivedMail, "from" | "to"> {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const body = raw.slice(split + 4);
  const headers = Object.fromEntries(
    head.split("\r\n").map((line) => {
      const i = line.indexOf(":");
      return [line.slice(0, i).toLowerCase(), line.slice(i + 1).trim()];
    }),
  );
  const encoding = (headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  const text =
    encoding === "base64" ? Buffer.from(body, "base64").toString("utf8")
    : encoding === "quoted-printable" ? decodeQuotedPrintable(body).toString("utf8")
    : body;
  return { subject: decodeHeader(headers.subject ?? ""), text, headers };
}

/** An SMTP server that requires AUTH with the given credentials and keeps every message it accepts. */
export async function startSmtpPeer(auth: { user: string; pass: string }, port = 0): Promise<TSmtpPeer> {
  const received: TReceivedMail[] = [];
  const server = new SMTPServer({
    // Plain loopback: no TLS to negotiate, and AUTH allowed without it.
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth(a, _session, done) {
      if (a.username === auth.user && a.password === auth.pass) done(null, { user: a.username });
      else done(new Error("Invalid username or password"));
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const env = session.envelope;
        received.push({
          from: env.mailFrom ? env.mailFrom.address : "",
          to: env.rcptTo.map((r) => r.address),
          ...parseMail(Buffer.concat(chunks).toString("latin1")),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const bound = (server.server.address() as AddressInfo).port;
  const credentials = `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.pass)}`;
  return {
    port: bound,
    url: `smtp://${credentials}@127.0.0.1:${bound}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TWebhookCall = { headers: IncomingHttpHeaders; body: Record<string, unknown>; accepted: boolean };

export type TWebhookPeer = {
  url: string;
  calls: TWebhookCall[];
  /** The status the listener answers with (200 unless a test sets it). */
  status: number;
  close(): Promise<void>;
};

/** An HTTP listener that records each JSON POST and answers `status`. */
export async function startWebhookPeer(): Promise<TWebhookPeer> {
  const peer: TWebhookPeer = { url: "", calls: [], status: 200, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      peer.calls.push({ headers: req.headers, body, accepted: peer.status >= 200 && peer.status < 300 });
      res.writeHead(peer.status, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`;
  peer.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return peer;
}

/** A loopback port with nothing listening on it: a transport that is down. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
