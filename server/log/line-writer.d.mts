export type TLevel = "debug" | "info" | "warn" | "error";
export function isLogged(level: TLevel): boolean;
export const WORKER: number | undefined;
export function isoNow(): string;
export function flushLog(): void;
export function writeLine(level: TLevel, line: string): void;
export function logLine(level: TLevel, msg: string, fields?: Record<string, unknown>): void;
