import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The default output, then which tests were skipped and why.
    reporters: ["default", "./test/support/skip-summary-reporter.ts"],
  },
});
