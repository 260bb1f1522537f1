import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The shipped pdf.js build (scripts/vendor-pdfjs.mjs) is loaded by Node as it is, like a
    // dependency: it imports its own worker file by path, which a transform would break.
    server: { deps: { external: [/\/vendor\/pdfjs-dist\//] } },
    // The default output, then which tests were skipped and why.
    reporters: ["default", "./test/support/skip-summary-reporter.ts"],
  },
});
