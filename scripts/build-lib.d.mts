export const root: string;
export const nextBin: string;
export const serverEntry: string;
export const cliBundle: string;
export const cliMeta: string;
export function currentCliBundle(): string | null;
export function build(env?: NodeJS.ProcessEnv): void;
export function buildIfStale(env?: NodeJS.ProcessEnv): boolean;
