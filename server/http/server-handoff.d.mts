export const MAX_BODY_BYTES: number;
export const RAW_BODY: unique symbol;
export const TLS_IDENTITY_HEADER: string;
export const STRING_BODY: unique symbol;
export const PATH_PARAMS: unique symbol;
export const REQUEST_TARGET: unique symbol;
