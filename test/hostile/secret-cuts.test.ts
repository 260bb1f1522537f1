// Issue 24, M1: a secret echoed in a server's reply must not survive any cut of the quoted text —
// the bounded read of a reply (4 KB for a provider, 16 KB for Huginn) or the quote's own cut
// (300, 500 characters) — whatever offset the secret starts at around the cut. The key is made
// of letters that appear nowhere else in the messages, so "no key character" is checked exactly.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HuginnBackend } from "../../src/backends/huginn/huginn-backend.js";
import { explainPostgresError } from "../../src/backends/postgres/pg-connection.js";
import { PostgresBackend } from "../../src/backends/postgres/postgres-backend.js";
import { slackErrorText } from "../../src/hosts/slack/app.js";
import { createLlmClient } from "../../src/llm/create-llm-client.js";
import { scrubSecrets } from "../../src/secret-text.js";
import { silent } from "../corrective/corrective-fixtures.js";
import { startScriptedProviderServer } from "../llm/scripted-provider-server.js";
import { type HuginnServer, startHuginnServer } from "../support/huginn-server/huginn-server.js";

const KEY = "ZXJZXJJZXZJXZXJZXJZZXJ";
const KEY_CHARACTERS = /[ZXJ]/;

/** Every offset at which the key starts within `reach` characters of a cut at `cut` (on either side). */
function offsetsAround(cut: number, reach = KEY.length + 2): number[] {
  const out: number[] = [];
  for (let start = cut - reach; start <= cut + 2; start++) if (start >= 0) out.push(start);
  return out;
}

function expectNoKeyCharacter(text: string, where: string) {
  expect(KEY_CHARACTERS.test(text), `${where}: ${text.slice(-80)}`).toBe(false);
}

describe("scrubSecrets on a text cut where it was read", () => {
  it("redacts a tail that begins the key, at every length, and only when told the text was cut", () => {
    for (let k = 1; k < KEY.length; k++) {
      const text = `bad key: ${KEY.slice(0, k)}`;
      expect(scrubSecrets(text, [KEY], { truncated: true })).toBe("bad key: [redacted]");
      expect(scrubSecrets(text, [KEY])).toBe(text);
    }
    expect(scrubSecrets(`bad key: ${KEY.slice(0, 5)}\uFFFD`, [KEY], { truncated: true })).toBe(
      "bad key: [redacted]",
    );
  });
});

describe("providers: a key echoed in an error body, at every offset around each cut", () => {
  const MAX_ERROR_BYTES = 4 * 1024;
  const QUOTE_CHARS = 300;
  const ask = { messages: [{ role: "user" as const, content: "q" }] };

  for (const type of ["anthropic", "openai"] as const) {
    it(`${type}: around the ${MAX_ERROR_BYTES}-byte read and the ${QUOTE_CHARS}-character quote`, async () => {
      const cases: string[] = [
        // The reproduction: spaces, "bad key: ", the key, more words (not JSON: quoted as text).
        ...offsetsAround(MAX_ERROR_BYTES).map(
          (start) => `${" ".repeat(start - 9)}bad key: ${KEY} — check your settings ${"a".repeat(200)}`,
        ),
        ...offsetsAround(QUOTE_CHARS).map((start) =>
          JSON.stringify({ error: { message: `${"a".repeat(start)}${KEY} tail` } }),
        ),
      ];
      const server = await startScriptedProviderServer((index) => ({
        status: 401,
        body: cases[index] ?? "",
      }));
      try {
        const llm = createLlmClient(
          { type, baseUrl: `${server.url}/v1`, apiKeyEnv: "K" },
          "m",
          { K: KEY },
          { log: silent },
        );
        for (let i = 0; i < cases.length; i++) {
          const error = (await llm.chat(ask).catch((e: unknown) => e)) as Error;
          expect(error.message).toMatch(/HTTP 401/);
          expectNoKeyCharacter(error.message, `case ${i}`);
        }
        expect(server.requests.length).toBe(cases.length);
      } finally {
        await server.close();
      }
    });
  }
});

describe("Huginn: credentials of its URL echoed in an error body, at every offset around each cut", () => {
  const MAX_ERROR_BODY_BYTES = 16 * 1024;
  const QUOTE_CHARS = 500;
  let server: HuginnServer;
  let bodies: string[] = [];
  let next = 0;

  beforeAll(async () => {
    server = await startHuginnServer({
      search: () => ({ status: 500, body: bodies[next++] ?? "" }),
    });
  });
  afterAll(async () => server?.close());

  it(`around the ${MAX_ERROR_BODY_BYTES}-byte read and the ${QUOTE_CHARS}-character quote`, async () => {
    bodies = [
      ...offsetsAround(MAX_ERROR_BODY_BYTES).map((start) => `${"a".repeat(start)}${KEY} ${"a".repeat(100)}`),
      ...offsetsAround(QUOTE_CHARS).map((start) => `${"a".repeat(start)}${KEY} tail`),
    ];
    next = 0;
    const url = new URL(server.url);
    url.username = "reader";
    url.password = KEY;
    const huginn = new HuginnBackend({ url: url.toString(), collections: ["docs"] });
    try {
      for (let i = 0; i < bodies.length; i++) {
        const error = (await huginn.search({ query: "q" }).catch((e: unknown) => e)) as Error;
        expect(error.message).toMatch(/API returned 500/);
        expectNoKeyCharacter(error.message, `case ${i}`);
      }
      expect(next).toBe(bodies.length);
    } finally {
      await huginn.close();
    }
    // Unreachable: the message names the server without its credentials.
    const down = new HuginnBackend({ url: `http://reader:${KEY}@127.0.0.1:9/`, collections: ["docs"] });
    try {
      const error = (await down.search({ query: "q" }).catch((e: unknown) => e)) as Error;
      expect(error.message).toMatch(/not running at http:\/\/127\.0\.0\.1:9/);
      expectNoKeyCharacter(error.message, "unreachable");
    } finally {
      await down.close();
    }
  });
});

describe("PostgreSQL: the connection string's password in a driver message", () => {
  const target = { bot: "kb", urlEnv: "DB_URL", schema: "second_look" };
  const connection = `postgresql://reader:${KEY}@127.0.0.1:9/db`;

  it("is scrubbed before the message is cut to its first line, at every offset around the cut", () => {
    for (let start = 0; start <= 40; start++) {
      const error = new Error(`${"a".repeat(start)}${KEY}\n${"b".repeat(20)} ${connection}`);
      const explained = explainPostgresError(target, "127.0.0.1:9/db", error, [KEY, connection]);
      expectNoKeyCharacter(explained.message, `offset ${start}`);
    }
    const timeout = Object.assign(new Error(`connect timeout to ${connection}`), { code: "ETIMEDOUT" });
    const explained = explainPostgresError(target, "127.0.0.1:9/db", timeout, [KEY, connection]);
    expectNoKeyCharacter(explained.message, "timeout");
    expect(explained.message).toContain("did not answer in time");
  });

  it("never appears when the server is unreachable", async () => {
    const error = await PostgresBackend.open({
      ...target,
      collections: { docs: { paths: ["*.md"] } },
      env: { DB_URL: connection },
    }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/unreachable|did not answer|closed the connection/);
    expectNoKeyCharacter(error!.message, "open");
  });
});

describe("Slack: a token in a Web API error, at every offset around the 300-character cut", () => {
  it("is scrubbed before the words are cut", () => {
    for (const start of offsetsAround(300)) {
      const error = Object.assign(new Error(`${"a".repeat(start)}${KEY} tail`), {
        original: { message: "detail" },
      });
      expectNoKeyCharacter(slackErrorText(error, [KEY]), `offset ${start}`);
    }
  });
});
