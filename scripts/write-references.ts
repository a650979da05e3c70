// `npm run docs:reference`: writes the references generated from the code (the configuration from
// its schema, the error codes from their registry, the API overview from the operation catalog). Unit tests fail when a committed page differs.
import { writeFileSync } from "node:fs";
import { API_REFERENCE_FILE, renderApiReference } from "../server/api/api-reference.ts";
import { CONFIG_REFERENCE_FILE, renderConfigReference } from "../server/config/config-reference.ts";
import { ERROR_REFERENCE_FILE, renderErrorReference } from "../server/errors/error-reference.ts";

for (const [file, text] of [
  [CONFIG_REFERENCE_FILE, renderConfigReference()],
  [ERROR_REFERENCE_FILE, renderErrorReference()],
  [API_REFERENCE_FILE, renderApiReference()],
] as const) {
  writeFileSync(file, text);
  console.log(`wrote ${file}`);
}
