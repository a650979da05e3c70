export const SYSTEM_CHROMIUMS: string[];
export const NO_CHROMIUM: string;
export function findChromium(opts?: { env?: Record<string, string | undefined>; exists?: (p: string) => boolean; playwrightChromium?: string }): string | null;
