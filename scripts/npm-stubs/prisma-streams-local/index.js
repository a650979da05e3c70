// `prisma dev` (Prisma's local Postgres) is not used by this project; its streams engine needs Node 22.
export async function startLocalDurableStreamsServer() {
  throw new Error("@prisma/streams-local is not installed here: this project does not use `prisma dev`");
}
