export const MAX_WORKERS: number;
export function parseWorkers(
  raw: string | undefined,
  databaseUrl: string | undefined,
  cores: number,
): { ok: true; value: number } | { ok: false; reason: string };
export function cgroupCpuLimit(cpuMax: string | undefined): number | undefined;
export function usableCores(cores: number, readCpuMax?: () => string | undefined): number;
export const PRIMARY_MARK: string;
export function forkedByOurPrimary(isWorker: boolean, env: Record<string, string | undefined>, ppid: number): boolean;
export const FIRST_WORKER_MARK: string;
