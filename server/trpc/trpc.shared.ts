/** The most calls one tRPC batch may carry: the server refuses more, the pages' batch link sends no more. */
export const MAX_TRPC_BATCH = 20;
