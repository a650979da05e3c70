export declare const TLS_IDENTITY_HEADER: "x-idp-tls-client";
export declare const PEER_HEADER: "x-idp-peer";
