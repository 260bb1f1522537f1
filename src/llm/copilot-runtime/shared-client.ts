// One CopilotClient (one runtime child process, ~100 MB) per process and runtime home, shared
// by every BotRuntime that uses that home and stopped when the last one is released. The home
// is per bot (`<bot dir>/.second-look/copilot-home`) because HOME and COPILOT_HOME are
// process-wide for the runtime; a single-bot process therefore runs exactly one client.

import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { CopilotClient, RuntimeConnection } from "@github/copilot-sdk";
import { DEADLINES, withDeadline } from "../../deadline.js";
import { runtimeEnvironment, runtimeLocation } from "./runtime-environment.js";

interface ClientSpec {
  home: string;
  baseDirectory: string;
  env: Record<string, string>;
  /** False with a BYOK provider: the runtime must not try a stored GitHub login. */
  useLoggedInUser: boolean;
}

export interface ClientLease {
  client: CopilotClient;
  /** Idempotent; stops the client when this was the last lease. */
  release(): Promise<void>;
}

interface Entry {
  client: CopilotClient;
  refs: number;
  started: Promise<void>;
}

const STOP_GRACE_MS = DEADLINES.copilotStopGraceMs;

const clients = new Map<string, Entry>();

function specKey(spec: ClientSpec): string {
  // Hashed because the env may carry a sign-in token; the key is never logged either way.
  const material = JSON.stringify([spec.home, spec.baseDirectory, spec.env, spec.useLoggedInUser]);
  return createHash("sha256").update(material).digest("hex");
}

async function stopClient(client: CopilotClient): Promise<void> {
  try {
    await withDeadline("stopping the Copilot runtime", STOP_GRACE_MS, undefined, () => client.stop());
  } catch {
    // Late or failed: the runtime process is killed instead.
    await client.forceStop().catch(() => undefined);
  }
}

/**
 * The shared client of a bot folder's runtime: the bot (src/connectors/copilot-sdk/copilot-bot-runtime.ts)
 * and its Copilot grader (src/llm/copilot-chat-client.ts) ask with the same spec, so they share one process.
 * A BYOK `provider` runs the runtime offline; without one it signs in as the logged-in user.
 */
export function acquireBotRuntime(
  botDir: string,
  hostEnv: NodeJS.ProcessEnv,
  provider?: { type: string; baseUrl: string; model: string },
): Promise<ClientLease> {
  const { home, baseDirectory } = runtimeLocation(botDir);
  const env = runtimeEnvironment({ hostEnv, home, ...(provider ? { provider } : {}) });
  return acquireCopilotClient({ home, baseDirectory, env, useLoggedInUser: provider === undefined });
}

/** Lease the shared client for `spec`, creating and starting it on first use. */
async function acquireCopilotClient(spec: ClientSpec): Promise<ClientLease> {
  const key = specKey(spec);
  let entry = clients.get(key);
  if (!entry) {
    const client = new CopilotClient({
      connection: RuntimeConnection.forStdio({ env: spec.env }),
      baseDirectory: spec.baseDirectory,
      // The runtime's cwd: an empty directory of ours, so nothing in the host's cwd (AGENTS.md,
      // .github/copilot-instructions.md, .mcp.json) is discovered.
      workingDirectory: spec.home,
      useLoggedInUser: spec.useLoggedInUser,
      logLevel: "error",
    });
    const started = (async () => {
      await mkdir(spec.baseDirectory, { recursive: true });
      await client.start();
    })();
    entry = { client, refs: 0, started };
    clients.set(key, entry);
  }
  const current = entry;
  current.refs += 1;
  try {
    await current.started;
  } catch (error) {
    current.refs -= 1;
    if (clients.get(key) === current) clients.delete(key);
    if (current.refs === 0) await current.client.forceStop().catch(() => undefined);
    throw error;
  }
  let released = false;
  return {
    client: current.client,
    release: async () => {
      if (released) return;
      released = true;
      current.refs -= 1;
      if (current.refs > 0) return;
      if (clients.get(key) === current) clients.delete(key);
      await stopClient(current.client);
    },
  };
}
