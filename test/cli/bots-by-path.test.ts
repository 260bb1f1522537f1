// Issue 23, item 1: in a project that installed the package, a bot lives in a folder of its own
// (`./my-bot`), not under ./bots. Every command that takes a bot takes that path, and `bots`
// lists what it finds from the working directory. Run in-process from such a project's folder.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { findBots, resolveBots } from "../../src/bots/bot-resolver.js";
import { BotNotFoundError } from "../../src/bots/discovery.js";
import { runCli } from "../support/run-cli.js";

const TOPICS = ["kettle", "teapot", "toaster", "blender", "mixer", "grinder", "oven", "stove"];

let project: string;
let questions: string;
const startDir = process.cwd();
const savedEnv = { ...process.env };

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), "second-look-consumer-"));
  const bot = join(project, "my-bot");
  await mkdir(join(bot, "docs"), { recursive: true });
  for (const topic of TOPICS) {
    await writeFile(
      join(bot, "docs", `${topic}.md`),
      `# ${topic}\n\nA short guide to the ${topic}: clean the ${topic} and descale the ${topic} weekly.\n`,
    );
  }
  await writeFile(
    join(bot, "config.json"),
    JSON.stringify({
      description: "Kitchen appliance guides.",
      knowledge: { backend: "embedded", collections: { kitchen: { paths: ["docs/**/*.md"] } } },
      correctiveRetrieval: { enabled: true, grader: "signal" },
    }),
  );
  // Folders that are not bots: the project's own code and its node_modules.
  await mkdir(join(project, "src"));
  await mkdir(join(project, "node_modules"));
  questions = join(project, "questions.jsonl");
  const lines = [
    ...TOPICS.map((t, i) => ({ id: `a${i}`, text: `guide ${t}`, kind: "answerable", relevant: [`${t}.md`] })),
    ...["submarine", "volcano", "harpsichord"].map((w, i) => ({
      id: `u${i}`,
      text: `guide ${w}`,
      kind: "unanswerable",
    })),
  ];
  await writeFile(questions, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
}, 60_000);

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

beforeEach(() => {
  process.chdir(project);
  for (const key of Object.keys(process.env)) if (/^(SLACK|TEAMS)_/.test(key)) delete process.env[key];
  process.env.SECOND_LOOK_LOG_LEVEL = "silent";
});

afterEach(() => {
  process.chdir(startDir);
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
});

describe("the bot resolver in a project without ./bots", () => {
  it("finds ./my-bot from the working directory and resolves it by path and by name", async () => {
    const found = await findBots({ cwd: project, quiet: true });
    expect(found.bots.map((b) => b.dir)).toEqual([join(project, "my-bot")]);
    expect(found.searched).toEqual([join(project, "bots"), project]);
    const byPath = await resolveBots(["./my-bot"], { cwd: project, quiet: true });
    const byName = await resolveBots(["my-bot"], { cwd: project, quiet: true });
    expect(byPath.map((b) => b.dir)).toEqual([join(project, "my-bot")]);
    expect(byName.map((b) => b.dir)).toEqual([join(project, "my-bot")]);
  });

  it("names every unknown bot at once, with what it found", async () => {
    const failure = resolveBots(["./nope", "my-bot", "other"], { cwd: project, quiet: true });
    await expect(failure).rejects.toBeInstanceOf(BotNotFoundError);
    await expect(failure).rejects.toThrow("unknown bot(s): ./nope, other (available: my-bot;");
  });

  it("lists a project folder that is itself a bot", async () => {
    const found = await findBots({ cwd: join(project, "my-bot"), quiet: true });
    expect(found.bots.map((b) => b.name)).toEqual(["my-bot"]);
  });
});

describe("each command with a bot folder path", () => {
  it("bots: lists ./my-bot with no argument, and by path", async () => {
    const listed = await runCli(["bots", "--json"]);
    expect(listed.exitCode).toBe(0);
    expect(JSON.parse(listed.stdout).map((e: { name: string; dir: string }) => [e.name, e.dir])).toEqual([
      ["my-bot", join(project, "my-bot")],
    ]);
    const named = await runCli(["bots", "./my-bot"]);
    expect(named.exitCode).toBe(0);
    expect(named.stdout).toMatch(/^my-bot\s+embedded\s+kitchen/);
  });

  it("serve --bots ./my-bot: resolves the folder, then says which credentials would enable it", async () => {
    const run = await runCli(["serve", "--bots", "./my-bot"]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).not.toContain("unknown bot");
    expect(run.stderr).toContain("my-bot: Slack: set SLACK_BOT_TOKEN_MY_BOT");
  });

  it("serve with no --bots serves what it finds from the working directory", async () => {
    const run = await runCli(["serve"]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain("no bot has Slack or Teams credentials");
    expect(run.stderr).toContain("my-bot: Slack: set");
  });

  it("serve --bots with an unknown path names it and what is available", async () => {
    const run = await runCli(["serve", "--bots", "./missing"]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/--bots names unknown bot\(s\): \.\/missing \(available: my-bot;/);
  });

  it("eval ./my-bot --questions: judges the bot", async () => {
    const run = await runCli(["eval", "./my-bot", "--questions", "questions.jsonl", "--json"]);
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ bot: "my-bot", documents: 8, unmatchedRelevant: [] });
  }, 60_000);

  it("calibrate ./my-bot --dry-run: fits on the bot's own questions", async () => {
    const run = await runCli([
      "calibrate",
      "./my-bot",
      "--questions",
      "questions.jsonl",
      "--dry-run",
      "--json",
    ]);
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ questions: 11, answerable: 8, unanswerable: 3 });
  }, 60_000);
});
