export declare const SECURITY_HEADERS: Readonly<Record<"x-frame-options" | "x-content-type-options", string>>;
export declare function hstsOf(env?: Record<string, string | undefined>): string | undefined;
export declare function pagePolicy(nonce: string, dev?: boolean): string;
