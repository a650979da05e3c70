// Next calls register() once per server process before it serves requests: the place to migrate,
// bootstrap and import, inside the process that owns the (possibly embedded) database. Then the
// operations go to the production server's node:http transport, where one waits for them
// (server/api/publish.ts); `next dev` and `next start` need not load the catalog here.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { bootOrExit } = await import("./server/boot/boot.ts");
  await bootOrExit();
  if (!(globalThis as Record<symbol, unknown>)[Symbol.for("idp.operations")]) return;
  const { publishOperations } = await import("./server/api/publish.ts");
  publishOperations();
}
