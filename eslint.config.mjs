import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", ".next/", "server/db/generated/", "data/", "test-results/", "playwright-report/", "next-env.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", Buffer: "readonly", URL: "readonly", fetch: "readonly", setTimeout: "readonly", clearTimeout: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Prisma belongs to repositories (and the db factory): the house rule, enforced.
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/db/generated/*", "@prisma/client", "@prisma/client/*"], message: "Only repositories and server/db may use Prisma directly." }] },
      ],
    },
  },
  {
    files: ["server/db/**", "server/**/*.repository.ts", "test/**"],
    rules: { "no-restricted-imports": "off" },
  },
  {
    files: ["test/**", "**/*.test.ts", "e2e/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-non-null-assertion": "off" },
  },
);
