// Optional peer dependencies (src/optional-package.ts): a missing one is one SecondLookError
// line naming the package to install; anything else a loader throws passes through unchanged.
import { describe, expect, it } from "vitest";
import { SecondLookError } from "../src/errors.js";
import { loadOptional } from "../src/optional-package.js";

const need = {
  packages: ["pg", "pg-copy-streams"],
  neededFor: 'knowledge.backend "postgres"',
  layer: "knowledge",
} as const;

describe("loadOptional", () => {
  it("turns a missing package into one line naming what to install", async () => {
    // A real resolution failure from Node, for a package that is not installed.
    const load = () => import("pg-copy-streams-not-installed" as string).then(() => undefined);
    const missing = await loadOptional({ ...need, packages: ["pg-copy-streams-not-installed"] }, load).catch(
      (error: unknown) => error,
    );
    expect(missing).toBeInstanceOf(SecondLookError);
    expect((missing as SecondLookError).code).toBe("missing-package");
    expect((missing as SecondLookError).layer).toBe("knowledge");
    expect((missing as Error).message).toBe(
      'knowledge.backend "postgres" needs the package pg-copy-streams-not-installed, which is not installed: run `npm i pg-copy-streams-not-installed`',
    );
    expect((missing as Error).message.split("\n")).toHaveLength(1);
  });

  it("names the package that is missing among several", async () => {
    const error = Object.assign(
      new Error("Cannot find package 'pg-copy-streams' imported from /x/pg-copy.js"),
      {
        code: "ERR_MODULE_NOT_FOUND",
      },
    );
    const missing = await loadOptional(need, () => Promise.reject(error)).catch((e: unknown) => e);
    expect((missing as Error).message).toMatch(
      /needs the package pg-copy-streams, .*`npm i pg pg-copy-streams`/,
    );
  });

  it("lets another module's resolution failure and other errors through", async () => {
    const other = Object.assign(new Error("Cannot find package 'left-pad' imported from /x"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    await expect(loadOptional(need, () => Promise.reject(other))).rejects.toBe(other);
    const broken = new TypeError("boom");
    await expect(loadOptional(need, () => Promise.reject(broken))).rejects.toBe(broken);
  });

  it("returns the module when it is there", async () => {
    const loaded = await loadOptional(need, () => import("pg"));
    expect(typeof loaded.default.Pool).toBe("function");
  });
});
