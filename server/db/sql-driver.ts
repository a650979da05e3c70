import type { PGlite } from "@electric-sql/pglite";
import type { Pool } from "pg";

/**
 * One connection's worth of raw SQL. The migrator and the readiness probe need it: Prisma's raw
 * queries use the extended protocol, which refuses multi-statement migration files, and
 * session-level advisory locks need the same connection for lock and unlock.
 */
export interface SqlSession {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  exec(text: string): Promise<void>;
}

export interface SqlDriver {
  kind: "postgres" | "embedded";
  session<T>(fn: (s: SqlSession) => Promise<T>): Promise<T>;
}

export function pgDriver(pool: Pool): SqlDriver {
  return {
    kind: "postgres",
    async session(fn) {
      const client = await pool.connect();
      try {
        return await fn({
          query: async (text, params) => (await client.query(text, params)).rows,
          exec: async (text) => void (await client.query(text)),
        });
      } finally {
        client.release();
      }
    },
  };
}

export function pgliteDriver(pglite: PGlite): SqlDriver {
  // PGlite is a single connection already; a session is simply that connection.
  const session: SqlSession = {
    query: async <T>(text: string, params?: unknown[]) => (await pglite.query<T>(text, params)).rows,
    exec: async (text) => void (await pglite.exec(text)),
  };
  return { kind: "embedded", session: (fn) => fn(session) };
}
