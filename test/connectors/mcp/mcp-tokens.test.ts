// The tokens file, the listen address, the per-token rate and the call limit: the rules the
// HTTP server applies before a request reaches a tool.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callLimiter, ServerBusyError } from "../../../src/connectors/mcp/call-limiter.js";
import {
  grantedCollections,
  loadTokens,
  McpTokensError,
  parseTokensFile,
} from "../../../src/connectors/mcp/mcp-tokens.js";
import { rateLimiter } from "../../../src/connectors/mcp/rate-limit.js";
import { McpListenError, parseListenAddress } from "../../../src/connectors/mcp/serve-http.js";

const A = "aaaaaaaaaaaaaaaa-token";
const B = "bbbbbbbbbbbbbbbb-token";

describe("the tokens file", () => {
  it("reads a token and its scopes per line, skipping comments and blank lines", () => {
    const entries = parseTokensFile(
      `# team tokens\n\n${A}  *\n${B} handbook, wiki/policies ,wiki/pay\n`,
      "tokens.txt",
    );
    expect(entries).toEqual([
      { token: A, label: "tokens.txt:3", scopes: [{ kind: "all" }] },
      {
        token: B,
        label: "tokens.txt:4",
        scopes: [
          { kind: "bot", bot: "handbook" },
          { kind: "collection", bot: "wiki", collection: "policies" },
          { kind: "collection", bot: "wiki", collection: "pay" },
        ],
      },
    ]);
  });

  it.each([
    [`short *`, "tokens.txt:1: token: a token must have at least 16 characters"],
    [`${A}`, "tokens.txt:1: scope: name what the token may use"],
    [`${A} a/b/c`, 'tokens.txt:1: scope: a scope is "*", a bot name, or bot/collection'],
    [`# ok\n${A} *\n${A} handbook`, "tokens.txt:3: the same token as line 2"],
  ])("names the file and line of a bad line: %j", (text, message) => {
    expect(() => parseTokensFile(text, "tokens.txt")).toThrow(McpTokensError);
    expect(() => parseTokensFile(text, "tokens.txt")).toThrow(message);
  });

  it("takes tokens from SECOND_LOOK_MCP_TOKENS and the file; authenticates only a Bearer header with a known token", async () => {
    const dir = await mkdtemp(join(tmpdir(), "second-look-tokens-"));
    try {
      const file = join(dir, "tokens.txt");
      await writeFile(file, `${B} handbook\n`);
      const store = await loadTokens({ env: { SECOND_LOOK_MCP_TOKENS: ` ${A} ,` }, file });
      expect(store.size).toBe(2);
      expect(store.authenticate(`Bearer ${A}`)).toEqual({
        label: "SECOND_LOOK_MCP_TOKENS #1",
        scopes: [{ kind: "all" }],
      });
      expect(store.authenticate(`bearer ${B}`)?.label).toBe(`${file}:1`);
      for (const header of [undefined, "", A, `Basic ${A}`, `Bearer ${A}x`, `Bearer ${A.slice(0, -1)}`]) {
        expect(store.authenticate(header)).toBeUndefined();
      }
      await expect(loadTokens({ env: { SECOND_LOOK_MCP_TOKENS: "tiny" } })).rejects.toThrow(
        "SECOND_LOOK_MCP_TOKENS token #1: a token must have at least 16 characters",
      );
      await expect(loadTokens({ env: {}, file: join(dir, "missing.txt") })).rejects.toThrow(
        /missing\.txt: cannot read the tokens file/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("grants all of a bot, some of its collections, or none", () => {
    const grant = (scopes: string) => parseTokensFile(`${A} ${scopes}`, "t")[0]!;
    const collections = ["policies", "pay", "travel"];
    expect(grantedCollections(grant("*"), "wiki", collections)).toBe("all");
    expect(grantedCollections(grant("wiki"), "wiki", collections)).toBe("all");
    expect(grantedCollections(grant("wiki/travel,wiki/pay"), "wiki", collections)).toEqual(["pay", "travel"]);
    expect(grantedCollections(grant("wiki/gone"), "wiki", collections)).toBe("none");
    expect(grantedCollections(grant("handbook"), "wiki", collections)).toBe("none");
  });
});

describe("--http [host:]port", () => {
  it.each([
    ["8080", { host: "127.0.0.1", port: 8080 }],
    ["0.0.0.0:8080", { host: "0.0.0.0", port: 8080 }],
    ["[::1]:0", { host: "::1", port: 0 }],
    ["localhost:3000", { host: "localhost", port: 3000 }],
  ])("%s", (value, expected) => {
    expect(parseListenAddress(value)).toEqual(expected);
  });

  it.each(["", "host:", ":80", "70000", "a b:80"])("refuses %j", (value) => {
    expect(() => parseListenAddress(value)).toThrow(McpListenError);
  });
});

describe("the per-token rate", () => {
  it("allows a minute's worth at once, then one per 60/rate seconds, each token on its own", () => {
    const limiter = rateLimiter(3);
    expect([0, 1, 2].map(() => limiter.take("a", 0).allowed)).toEqual([true, true, true]);
    expect(limiter.take("a", 0)).toEqual({ allowed: false, retryAfterSeconds: 20 });
    expect(limiter.take("b", 0).allowed).toBe(true);
    expect(limiter.take("a", 15_000)).toEqual({ allowed: false, retryAfterSeconds: 5 });
    expect(limiter.take("a", 20_000).allowed).toBe(true);
  });

  it("takes a request's cost all or nothing (each message of a batch counts)", () => {
    const limiter = rateLimiter(6);
    expect(limiter.take("a", 0, 4).allowed).toBe(true);
    // Two left: a cost of three is refused and takes nothing; it waits for the one missing.
    expect(limiter.take("a", 0, 3)).toEqual({ allowed: false, retryAfterSeconds: 10 });
    expect(limiter.take("a", 0, 2).allowed).toBe(true);
    expect(limiter.take("a", 0).allowed).toBe(false);
  });
});

describe("the call limit", () => {
  it("runs at most n calls at once, the next in order of arrival, and refuses past the queue", async () => {
    const limiter = callLimiter(2, 2);
    const order: number[] = [];
    const gates: Array<() => void> = [];
    const call = (n: number) =>
      limiter.run(async () => {
        order.push(n);
        await new Promise<void>((resolve) => gates.push(resolve));
        return n;
      });
    const calls = [call(1), call(2), call(3), call(4)];
    await expect(call(5)).rejects.toBeInstanceOf(ServerBusyError);
    await expect.poll(() => order).toEqual([1, 2]);
    expect([limiter.running, limiter.waiting]).toEqual([2, 2]);
    gates[1]!();
    await expect.poll(() => order).toEqual([1, 2, 3]);
    expect(limiter.running).toBe(2);
    gates[0]!();
    await expect.poll(() => order).toEqual([1, 2, 3, 4]);
    gates[2]!();
    gates[3]!();
    expect(await Promise.all(calls)).toEqual([1, 2, 3, 4]);
    expect([limiter.running, limiter.waiting]).toEqual([0, 0]);
  });

  it("a waiting call whose signal fires leaves the queue with the signal's reason", async () => {
    const limiter = callLimiter(1);
    let release: () => void = () => {};
    const first = limiter.run(() => new Promise<void>((resolve) => (release = resolve)));
    const stop = new AbortController();
    const second = limiter.run(async () => "ran", stop.signal);
    stop.abort(new Error("deadline"));
    await expect(second).rejects.toThrow("deadline");
    expect(limiter.waiting).toBe(0);
    release();
    await first;
    expect(limiter.running).toBe(0);
  });
});
