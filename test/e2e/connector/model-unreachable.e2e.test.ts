// The pre-flight before each question through the real runtime: with the bot's own model server
// down the question fails at once with `model_unreachable`, naming the address, and no session
// is started (so no half a minute of the runtime's retries); once the server is up the same
// runtime answers again, without a restart.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BotRuntime } from "../../../src/connectors/bot-runtime.js";
import { createCopilotBotRuntime } from "../../../src/connectors/copilot-sdk/copilot-bot-runtime.js";
import { createLogger } from "../../../src/telemetry/logger.js";
import { freePort } from "../../support/free-port.js";
import { type ModelServer, startModelServer } from "../../support/model-server/model-server.js";
import { botFor, hostEnv, makeBotDir, rejection, renderTrivial, tinyBackend } from "./fixtures.js";

const silent = createLogger({ level: "silent" });
// Far below the runtime's ~30 s of retries against a refused port, far above one local connect
// on a loaded machine: a reply inside it can only come from the pre-flight.
const WELL_WITHIN_RETRIES_MS = 10_000;

describe("a bot whose model server is down", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const runtimes: BotRuntime[] = [];
  const servers: ModelServer[] = [];

  beforeAll(async () => {
    ({ dir, cleanup } = await makeBotDir());
  });
  afterAll(async () => {
    for (const runtime of runtimes) await runtime.close();
    for (const server of servers) await server.close();
    await cleanup?.();
  });

  const runtimeAt = (baseUrl: string) => {
    const sessionConfigs: unknown[] = [];
    const runtime = createCopilotBotRuntime({
      bot: botFor(dir, { type: "openai", baseUrl, apiKeyEnv: "E2E_KEY" }),
      backend: tinyBackend(),
      renderResult: renderTrivial,
      env: hostEnv({ E2E_KEY: "sk-e2e" }),
      logger: silent,
      onSessionConfig: (config) => sessionConfigs.push(config),
    });
    runtimes.push(runtime);
    return { runtime, sessionConfigs };
  };

  it("fails with model_unreachable naming the address, without starting a session", async () => {
    const port = await freePort();
    const { runtime, sessionConfigs } = runtimeAt(`http://127.0.0.1:${port}/v1`);
    const started = Date.now();
    const error = await rejection(runtime.ask("search: vacation days", { conversationId: "down" }));
    expect(Date.now() - started).toBeLessThan(WELL_WITHIN_RETRIES_MS);
    expect(error.code).toBe("model_unreachable");
    expect(error.message).toBe(
      `Bot 'e2e-bot' cannot reach its model server: cannot connect to 127.0.0.1:${port} ` +
        `(ECONNREFUSED: nothing listens there); is it running? check provider.baseUrl in ${dir}/config.json`,
    );
    expect(error.message).not.toContain("sk-e2e");
    expect(sessionConfigs).toHaveLength(0);
  });

  it("answers as before when the server is up, and again once a server that was down comes up", async () => {
    const port = await freePort();
    const { runtime, sessionConfigs } = runtimeAt(`http://127.0.0.1:${port}/v1`);
    const down = await rejection(runtime.ask("first question", { conversationId: "c" }));
    expect(down.code).toBe("model_unreachable");
    // A failed check is not remembered: the next question asks again and finds the server.
    const server = await startModelServer({
      script: () => ({ kind: "text", text: "You get 25 vacation days." }),
      maxRequests: 10,
      port,
    });
    servers.push(server);
    const up = await runtime.ask("how many vacation days?", { conversationId: "c" });
    expect(up.answer).toBe("You get 25 vacation days.");
    expect(sessionConfigs).toHaveLength(1);
    expect(JSON.stringify(server.requests.at(-1)?.parsed)).toContain("how many vacation days?");
  });
});
