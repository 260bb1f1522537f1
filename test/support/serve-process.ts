// `second-look serve` as a child process for end-to-end tests: started in a folder of its own
// (serve discovers ./bots), its stderr collected, its JSON log lines at warn or above readable,
// and Slack events signed the way Slack signs them.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
// The process runs outside the repository: tsx by its absolute URL.
const TSX = import.meta.resolve("tsx");

/** Headers of a Slack event request signed with `secret` (Slack's v0 scheme). */
export function signedSlackEvent(secret: string, body: string): Record<string, string> {
  const ts = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac("sha256", secret).update(`v0:${ts}:${body}`).digest("hex")}`;
  return {
    "content-type": "application/json",
    "x-slack-request-timestamp": ts,
    "x-slack-signature": signature,
  };
}

/** The body of a Slack `app_mention` event asking the bot `question` (ids of the fake Slack API by default). */
export function mentionEventBody(
  question: string,
  ids: { team: string; botUser: string; eventId?: string; ts?: string } = { team: "T0001", botUser: "UBOT" },
): string {
  const ts = ids.ts ?? "1700000000.000100";
  return JSON.stringify({
    type: "event_callback",
    team_id: ids.team,
    api_app_id: "A0APP",
    event_id: ids.eventId ?? "Ev0001",
    event_time: 1_700_000_000,
    authorizations: [{ team_id: ids.team, user_id: ids.botUser, is_bot: true }],
    event: {
      type: "app_mention",
      user: "U0USER",
      text: `<@${ids.botUser}> ${question}`,
      ts,
      channel: "C0CHAN",
      event_ts: ts,
    },
  });
}

/** Posts a signed Slack event to a `serve` process's Slack receiver; resolves with the HTTP status. */
export async function postSlackEvent(port: number, secret: string, body: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/slack/events`, {
    method: "POST",
    headers: signedSlackEvent(secret, body),
    body,
  });
  return response.status;
}

/** A log line as pino writes it when stderr is a pipe. */
export interface LogLine {
  level: number;
  msg: string;
  code?: string;
  err?: { message?: string };
}

export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Polls `check` until it holds; fails naming `what` (with stderr) on timeout or exit. */
  waitFor(what: string, check: () => boolean, timeoutMs?: number): Promise<void>;
  /** The log lines at warn or above. */
  problems(): LogLine[];
  /** SIGTERM, and waits for the exit. */
  stop(): Promise<void>;
}

/**
 * Starts `second-look serve --host 127.0.0.1` in `cwd` with `env` added to this process's
 * environment, and resolves once it says it is serving.
 */
export async function startServe(cwd: string, env: Record<string, string>): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    ["--import", TSX, join(REPO, "test/connectors/mcp/second-look-cli.ts"), "serve", "--host", "127.0.0.1"],
    { cwd, env: { ...process.env, ...env } },
  );
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  child.stdout.resume();
  const serve: ServeProcess = {
    child,
    stderr: () => stderr,
    async waitFor(what, check, timeoutMs = 45_000) {
      const started = Date.now();
      while (!check()) {
        if (Date.now() - started > timeoutMs)
          throw new Error(`timed out waiting for ${what}; stderr:\n${stderr}`);
        if (child.exitCode !== null)
          throw new Error(`serve exited ${child.exitCode} while waiting for ${what}:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    problems: () =>
      stderr
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as LogLine)
        .filter((l) => l.level >= 40),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
  await serve.waitFor("the bot to serve", () => stderr.includes("serving on"));
  return serve;
}
