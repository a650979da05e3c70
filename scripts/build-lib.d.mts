export const root: string;
export const nextBin: string;
export const serverEntry: string;
export function build(env?: NodeJS.ProcessEnv): void;
export function buildIfStale(env?: NodeJS.ProcessEnv): boolean;
