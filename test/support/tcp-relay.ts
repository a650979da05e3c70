import { createConnection, createServer, type Server, type Socket } from "node:net";

/**
 * A TCP relay on loopback in front of a real server (PostgreSQL here): `cut()` drops every open
 * connection and refuses new ones, as a database that went away does; `restore()` accepts again on
 * the same port. The database itself is never touched, so other suites sharing it carry on.
 */
export type TRelay = { port: number; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> };

export async function startRelay(target: { host: string; port: number }): Promise<TRelay> {
  const open = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = createConnection(target);
        for (const s of [client, upstream]) {
          open.add(s);
          s.on("close", () => open.delete(s));
          s.on("error", () => (client.destroy(), upstream.destroy()));
        }
        client.pipe(upstream).pipe(client);
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const stop = async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  };
  await listen();
  return {
    get port() {
      return port;
    },
    cut: async () => {
      const closing = stop();
      for (const s of open) s.destroy();
      await closing;
    },
    restore: listen,
    close: async () => {
      for (const s of open) s.destroy();
      await stop();
    },
  };
}
