// `second-look serve` through the command line's own entry point: with no platform credentials
// at all it starts nothing and says, per bot, which variables would enable it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";

function sink(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

const saved = { ...process.env };

beforeEach(() => {
  // Credentials on the developer's machine must not start a real bot here.
  for (const key of Object.keys(process.env)) {
    if (/^(SLACK|TEAMS)_/.test(key)) delete process.env[key];
  }
  process.env.SECOND_LOOK_LOG_LEVEL = "silent";
});

afterEach(() => {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
  process.exitCode = 0;
});

describe("second-look serve", () => {
  it("exits non-zero without credentials, listing per bot the variables that would enable it", async () => {
    const stdout = sink();
    const stderr = sink();
    await main(["serve"], { stdout: stdout.stream, stderr: stderr.stream });
    expect(process.exitCode).toBe(1);
    expect(stdout.text()).toBe("");
    const message = stderr.text();
    expect(message).toContain("no bot has Slack or Teams credentials, so nothing was started");
    const line = message.split("\n").find((l) => l.trim().startsWith("handbook:"));
    expect(line).toBeDefined();
    expect(line).toContain(
      "Slack: set SLACK_BOT_TOKEN_HANDBOOK and SLACK_APP_TOKEN_HANDBOOK (Socket Mode) or SLACK_SIGNING_SECRET_HANDBOOK (HTTP events)",
    );
    expect(line).toContain(
      "Teams: set TEAMS_CLIENT_ID_HANDBOOK and TEAMS_CLIENT_SECRET_HANDBOOK (with TEAMS_TENANT_ID_HANDBOOK for a single-tenant app)",
    );
  });

  it("names what is still missing when a bot has only part of its Slack credentials", async () => {
    process.env.SLACK_BOT_TOKEN_HANDBOOK = "xoxb-partial";
    const stderr = sink();
    await main(["serve", "--bots", "handbook"], { stdout: sink().stream, stderr: stderr.stream });
    expect(process.exitCode).toBe(1);
    expect(stderr.text()).toContain(
      "handbook: Slack: set SLACK_APP_TOKEN_HANDBOOK (Socket Mode) or SLACK_SIGNING_SECRET_HANDBOOK (HTTP events)",
    );
  });

  it("rejects an unknown bot name and a bad limit with one line", async () => {
    const stderr = sink();
    await main(["serve", "--bots", "no-such-bot"], { stdout: sink().stream, stderr: stderr.stream });
    expect(process.exitCode).toBe(1);
    expect(stderr.text()).toMatch(
      /^second-look serve: --bots names unknown bot\(s\): no-such-bot \(available: .*handbook/,
    );

    const again = sink();
    await main(["serve", "--concurrency", "0"], { stdout: sink().stream, stderr: again.stream });
    expect(process.exitCode).toBe(1);
    expect(again.text()).toBe(
      'second-look serve: --concurrency must be a whole number from 1 to 64, got "0"\n',
    );
  });

  it("refuses, in one line and exit 1, a bot with credentials that names no model and no provider", async () => {
    const root = mkdtempSync(join(tmpdir(), "second-look-serve-mute-"));
    try {
      const dir = join(root, "mute");
      mkdirSync(join(dir, "docs"), { recursive: true });
      writeFileSync(join(dir, "docs/a.md"), "# A\n\nText.\n");
      writeFileSync(
        join(dir, "config.json"),
        JSON.stringify({ knowledge: { collections: { docs: { paths: ["docs/*.md"] } } } }),
      );
      process.env.SLACK_BOT_TOKEN_MUTE = "xoxb-mute";
      process.env.SLACK_SIGNING_SECRET_MUTE = "mute-secret";
      const stdout = sink();
      const stderr = sink();
      await main(["serve", "--bots", dir, "--host", "127.0.0.1"], {
        stdout: stdout.stream,
        stderr: stderr.stream,
      });
      expect(process.exitCode).toBe(1);
      expect(stdout.text()).toBe("");
      expect(stderr.text()).toBe(
        `second-look serve: bot mute cannot answer: ${join(dir, "config.json")} names no model and no provider; set "model" (a Copilot model), or "model" and "provider" (your own endpoint), then serve it\n`,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
