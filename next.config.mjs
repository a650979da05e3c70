import { parseContextPath } from "./server/config/context-path.mjs";
import { SECURITY_HEADERS } from "./server/http/security-headers.mjs";

const contextPath = parseContextPath(process.env.IDP_CONTEXT_PATH);
if (!contextPath.ok) {
  console.error(`IDP_CONTEXT_PATH: ${contextPath.reason}`);
  process.exit(1);
}

/** @type {import("next").NextConfig} */
const nextConfig = {
  basePath: contextPath.value,
  poweredByHeader: false,
  // Native addons and packages that ship WASM must be loaded by Node, not bundled.
  serverExternalPackages: [
    "argon2",
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "pg",
    "@prisma/adapter-pg",
    "nodemailer",
    // @peculiar/x509 needs the Reflect polyfill evaluated first; bundled, that order is lost.
    "reflect-metadata",
    "@peculiar/x509",
  ],
  // `npm run typecheck` and CI check types; repeating it in every `next build` only slows the start.
  typescript: { ignoreBuildErrors: true },
  // What Next serves, `next dev` included (the production server sets them on every answer too).
  async headers() {
    return [{ source: "/:path*", headers: Object.entries(SECURITY_HEADERS).map(([key, value]) => ({ key, value })) }];
  },
  async redirects() {
    const toConsole = [{ source: "/", destination: "/console", permanent: false }];
    // The host's own root too, so whoever opens http://host:port/ lands in the console.
    if (contextPath.value) toConsole.push({ source: "/", destination: `${contextPath.value}/console`, basePath: false, permanent: false });
    return toConsole;
  },
};

export default nextConfig;
