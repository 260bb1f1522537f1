import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BotConfigError } from "../../src/bots/config-error.js";
import { BotNotFoundError, describeBot, discoverBots, loadBot } from "../../src/bots/discovery.js";
import { createLogger, setLogger } from "../../src/telemetry/logger.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/bots/", import.meta.url));
const MIXED = join(FIXTURES, "mixed");

/** A pino logger writing into an array, so tests can read the log lines. */
function captureLogs(): { lines: Array<{ level: number; msg: string } & Record<string, unknown>> } {
  const lines: Array<{ level: number; msg: string } & Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  setLogger(createLogger({ level: "info", destination: stream }));
  return { lines };
}

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), "second-look-bots-"));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
  setLogger(createLogger({ level: "silent" }));
});

function writeBot(root: string, name: string, config: unknown, files: Record<string, string> = {}): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "config.json"),
    typeof config === "string" ? config : JSON.stringify(config, null, 2),
  );
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

const embedded = { knowledge: { collections: { docs: { paths: ["docs/**/*.md"] } } } };

describe("discoverBots", () => {
  it("loads every folder with a config.json; a malformed one fails alone", async () => {
    const result = await discoverBots(MIXED, {}, { quiet: true });
    expect(result.root).toBe(MIXED);
    expect(result.bots.map((b) => b.name)).toEqual(["handbook", "wiki"]);
    expect(result.failures).toHaveLength(1);
    const [failure] = result.failures;
    expect(failure?.name).toBe("typo");
    expect(failure?.dir).toBe(join(MIXED, "typo"));
    expect(failure?.error).toContain('correctiveRetrival: unknown key; did you mean "correctiveRetrieval"?');
    expect(failure?.error).toContain(join("typo", "config.json"));
  });

  it("builds a full definition: absolute dir, defaults, persona, resolved corrective state", async () => {
    const { bots } = await discoverBots(MIXED, {}, { quiet: true });
    const handbook = bots.find((b) => b.name === "handbook")!;
    expect(handbook.dir).toBe(join(MIXED, "handbook"));
    expect(handbook.configFile).toBe(join(MIXED, "handbook", "config.json"));
    expect(handbook.persona).toBe("You are the handbook bot. Answer from the handbook.\n");
    expect(handbook.config.session.maxToolCalls).toBe(8);
    expect(handbook.corrective).toMatchObject({ enabled: true, grader: "signal", retryBudget: 1 });
    const wiki = bots.find((b) => b.name === "wiki")!;
    expect(wiki.config.knowledge.backend).toBe("huginn");
    // No persona configured and no persona.md: the built-in persona.
    expect(wiki.persona).toContain("You are wiki");
    expect(wiki.persona).toContain("search_knowledge");
  });

  it("keeps a malformed JSON bot from stopping the others, with line and column", async () => {
    writeBot(tmp, "good", embedded);
    writeBot(tmp, "bad", '{\n  "knowledge": {,\n}');
    const { bots, failures } = await discoverBots(tmp, {}, { quiet: true, cwd: tmp });
    expect(bots.map((b) => b.name)).toEqual(["good"]);
    expect(failures).toEqual([
      {
        name: "bad",
        dir: join(tmp, "bad"),
        // The reason after the position is V8's wording, which varies between Node versions.
        error: expect.stringMatching(/^bad\/config\.json: invalid JSON at line 2, column 17: \S/),
      },
    ]);
  });

  it("reports a configured persona file that is missing, naming it", async () => {
    writeBot(tmp, "nopersona", { ...embedded, persona: "voice.md" });
    const { failures } = await discoverBots(tmp, {}, { quiet: true, cwd: tmp });
    expect(failures[0]?.error).toMatch(
      /^nopersona\/config\.json: persona: cannot read "voice\.md" \(.*voice\.md\): file not found$/,
    );
  });

  it("refuses a persona outside the bot folder (absolute, climbing, or through a symlink), naming it", async () => {
    writeFileSync(join(tmp, "secret.txt"), "not a persona");
    writeBot(tmp, "absolute", { ...embedded, persona: "/etc/passwd" });
    writeBot(tmp, "climbing", { ...embedded, persona: "../secret.txt" });
    const linked = writeBot(tmp, "linked", { ...embedded, persona: "voice.md" });
    symlinkSync(join(tmp, "secret.txt"), join(linked, "voice.md"));
    const { bots, failures } = await discoverBots(tmp, {}, { quiet: true, cwd: tmp });
    expect(bots).toEqual([]);
    const errors = Object.fromEntries(failures.map((f) => [f.name, f.error]));
    expect(errors.absolute).toMatch(/persona: "\/etc\/passwd" .* is outside the bot folder/);
    expect(errors.climbing).toMatch(/persona: "\.\.\/secret\.txt" .* is outside the bot folder/);
    expect(errors.linked).toMatch(/persona: "voice\.md" .* is outside the bot folder/);
  });

  it("returns nothing for a missing root", async () => {
    expect(await discoverBots(join(tmp, "nope"), {}, { quiet: true })).toEqual({
      root: join(tmp, "nope"),
      bots: [],
      failures: [],
    });
  });

  it("applies the env at discovery: the kill-switch beats a bot that enables it", async () => {
    const { bots } = await discoverBots(MIXED, { CORRECTIVE_RETRIEVAL_DISABLED: "1" }, { quiet: true });
    expect(bots.find((b) => b.name === "handbook")?.corrective.enabled).toBe(false);
  });

  it("logs one info line per bot and one warn per failure through the process logger", async () => {
    const { lines } = captureLogs();
    await discoverBots(MIXED, {});
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [30, "bot handbook: embedded (1 collection) · correctiveRetrieval: on (grader=signal, budget=1)"],
      [
        40,
        expect.stringMatching(
          /^bot typo: not loaded: .*typo\/config\.json: correctiveRetrival: unknown key; did you mean "correctiveRetrieval"\?$/,
        ),
      ],
      [
        30,
        "bot wiki: huginn http://localhost:8321 (2 collections) · correctiveRetrieval: off (disabled in config: correctiveRetrieval.enabled is false)",
      ],
    ]);
    expect(lines[0]).toMatchObject({
      bot: "handbook",
      backend: "embedded",
      collections: ["handbook"],
      correctiveRetrieval: { enabled: true, grader: "signal", retryBudget: 1, source: "bot" },
    });
  });

  it("logs the reason a bot is off", async () => {
    writeBot(tmp, "plain", embedded);
    const { lines } = captureLogs();
    await discoverBots(tmp, {});
    await discoverBots(tmp, { CORRECTIVE_RETRIEVAL_ENABLED: "true", CORRECTIVE_RETRIEVAL_BUDGET: "2" });
    await discoverBots(tmp, { CORRECTIVE_RETRIEVAL_ENABLED: "true", CORRECTIVE_RETRIEVAL_DISABLED: "true" });
    expect(lines.map((l) => l.msg)).toEqual([
      "bot plain: embedded (1 collection) · correctiveRetrieval: off (default: set correctiveRetrieval.enabled to true to turn it on)",
      "bot plain: embedded (1 collection) · correctiveRetrieval: on (grader=signal, budget=2)",
      "bot plain: embedded (1 collection) · correctiveRetrieval: off (kill-switch: CORRECTIVE_RETRIEVAL_DISABLED is set)",
    ]);
  });

  it("describeBot is the log line", async () => {
    const { bots } = await discoverBots(MIXED, {}, { quiet: true });
    expect(describeBot(bots[0]!)).toBe(
      "bot handbook: embedded (1 collection) · correctiveRetrieval: on (grader=signal, budget=1)",
    );
  });
});

describe("loadBot", () => {
  it("resolves a name under the bots folder", async () => {
    const bot = await loadBot("handbook", { botsRoot: MIXED, quiet: true });
    expect(bot.dir).toBe(join(MIXED, "handbook"));
  });

  it("resolves a name under ./bots of the working directory by default", async () => {
    writeBot(join(tmp, "bots"), "alpha", embedded);
    const bot = await loadBot("alpha", { cwd: tmp, quiet: true });
    expect(bot.dir).toBe(join(tmp, "bots", "alpha"));
  });

  it("resolves a relative or absolute path, or the config.json itself", async () => {
    const dir = writeBot(join(tmp, "elsewhere"), "beta", embedded);
    expect((await loadBot("./elsewhere/beta", { cwd: tmp, quiet: true })).dir).toBe(dir);
    expect((await loadBot(dir, { quiet: true })).name).toBe("beta");
    expect((await loadBot(join(dir, "config.json"), { quiet: true })).dir).toBe(dir);
  });

  it("falls back from a name to a folder in the working directory", async () => {
    const dir = writeBot(tmp, "gamma", embedded);
    expect((await loadBot("gamma", { cwd: tmp, botsRoot: "bots", quiet: true })).dir).toBe(dir);
  });

  it("prefers the name under the bots folder over a same-named folder in cwd", async () => {
    writeBot(tmp, "delta", embedded);
    const inBots = writeBot(join(tmp, "bots"), "delta", embedded);
    expect((await loadBot("delta", { cwd: tmp, quiet: true })).dir).toBe(inBots);
  });

  it("says clearly when neither exists, listing the available names", async () => {
    const error = await loadBot("nope", { botsRoot: MIXED, cwd: FIXTURES, quiet: true }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BotNotFoundError);
    expect((error as Error).message).toBe(
      'no bot "nope": not a bot name under mixed (available: handbook, typo, wiki) ' +
        "and not a path to a bot folder (a folder with config.json)",
    );
    const none = await loadBot("x", { cwd: tmp, quiet: true }).catch((e: unknown) => e);
    expect((none as Error).message).toContain("(there are none)");
  });

  it("says when a folder exists but is not a bot", async () => {
    const error = await loadBot("notabot", { botsRoot: MIXED, cwd: FIXTURES, quiet: true }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe("mixed/notabot is not a bot folder: it has no config.json");
  });

  it("throws the config error of a malformed bot", async () => {
    const error = await loadBot("typo", { botsRoot: MIXED, quiet: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BotConfigError);
    expect((error as BotConfigError).problems).toHaveLength(1);
  });

  it("uses the given env and logs its line", async () => {
    const { lines } = captureLogs();
    const bot = await loadBot("handbook", {
      botsRoot: MIXED,
      env: { CORRECTIVE_RETRIEVAL_DISABLED: "1" },
    });
    expect(bot.corrective.enabled).toBe(false);
    expect(lines.map((l) => l.msg)).toEqual([
      "bot handbook: embedded (1 collection) · correctiveRetrieval: off (kill-switch: CORRECTIVE_RETRIEVAL_DISABLED is set)",
    ]);
  });

  it("resolves paths against the given cwd", async () => {
    writeBot(join(tmp, "bots"), "epsilon", embedded);
    const bot = await loadBot("bots/epsilon", { cwd: tmp, quiet: true });
    expect(bot.dir).toBe(resolve(tmp, "bots/epsilon"));
  });
});
