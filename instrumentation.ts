// Next calls register() once per server process before it serves requests: the place to migrate,
// bootstrap and import, inside the process that owns the (possibly embedded) database.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { bootOrExit } = await import("./server/boot/boot.ts");
  await bootOrExit();
}
