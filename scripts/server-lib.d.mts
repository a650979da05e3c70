export function freePort(): Promise<number>;
export function startServer(opts?: { env?: Record<string, string>; contextPath?: string; timeoutMs?: number; logFile?: string; nodeArgs?: string[]; entry?: string[]; port?: number; tlsCa?: string; cwd?: string }): Promise<{
  baseUrl: string;
  port: number;
  pid: number | undefined;
  output(): string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}>;
export function createPgDatabase(adminUrl: string): Promise<{ url: string; name: string; drop(): Promise<void> }>;
