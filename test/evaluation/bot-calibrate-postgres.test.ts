// `second-look calibrate` on a postgres bot: the fit is stored in the bot's database (every
// process serving the bot, on any host, reads it from there) and its searches then carry the same
// relevance, bands and weak flag as the same bot on the embedded engine with the same fit.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEmbeddedEngine } from "../../src/backends/embedded/open-embedded.js";
import { PostgresBackend } from "../../src/backends/postgres/postgres-backend.js";
import { loadBot } from "../../src/bots/discovery.js";
import { openBotBackend } from "../../src/connectors/open-bot-backend.js";
import type { BotCalibrationReport } from "../../src/evaluation/calibrate-bot.js";
import { BotCalibrationError, calibrationFile } from "../../src/knowledge/bot-calibration.js";
import { DEFAULT_CALIBRATION } from "../../src/knowledge/relevance.js";
import { createLogger, setLogger } from "../../src/telemetry/logger.js";
import {
  type PostgresServer,
  postgresUnavailableReason,
  startPostgres,
} from "../support/postgres/postgres-server.js";
import { cliOutput } from "../support/run-cli.js";

const skipReason = postgresUnavailableReason();
if (skipReason) console.warn(`[skipped] calibrate on a postgres bot: ${skipReason}`);

const URL_ENV = "SL_TEST_CALIBRATE_DATABASE_URL";
const COLLECTIONS = { kb: { paths: ["docs/**/*.md"] } };
// Pages with a topic word each and two shared words, so every question's top 10 mixes the page
// judged relevant with others, some pages answer two topics, and scores spread.
const TOPICS = [
  "kettle",
  "bicycle",
  "violin",
  "compost",
  "telescope",
  "sourdough",
  "kayak",
  "origami",
  "beekeeping",
  "pottery",
  "chess",
  "juggling",
];

function page(topic: string, i: number): string {
  const next = TOPICS[(i + 1) % TOPICS.length]!;
  return [
    `# ${topic}`,
    "",
    `A short guide to the ${topic}: care for the ${topic} and enjoy the ${topic} every day.`,
    "",
    "## Beginners",
    "",
    `${i % 3 === 0 ? `Beginners often pair the ${topic} with the ${next}. ` : ""}Start slowly; practice helps.`,
    "",
  ].join("\n");
}

describe.skipIf(skipReason !== undefined)("calibrate on a postgres bot", () => {
  let server: PostgresServer;
  let dir: string;
  let embeddedBot: string;
  let postgresBot: string;
  let questionsFile: string;
  const questions = [
    ...TOPICS.map((topic, i) => ({
      id: `a${i}`,
      text: i % 2 ? `guide ${topic}` : `how do beginners practice the ${topic}`,
      kind: "answerable",
      relevant: [`${topic}.md`],
    })),
    ...["submarine", "volcano", "harpsichord"].map((word, i) => ({
      id: `u${i}`,
      text: `guide ${word}`,
      kind: "unanswerable",
    })),
  ];

  const makeBot = async (name: string, knowledge: object) => {
    const bot = join(dir, name);
    await mkdir(join(bot, "docs"), { recursive: true });
    await Promise.all(TOPICS.map((t, i) => writeFile(join(bot, "docs", `${t}.md`), page(t, i))));
    await writeFile(join(bot, "config.json"), JSON.stringify({ knowledge }));
    return bot;
  };
  const openPostgres = () =>
    PostgresBackend.open({ bot: "pgbot", urlEnv: URL_ENV, schema: "second_look", collections: COLLECTIONS });
  const calibrate = async (bot: string) =>
    JSON.parse(
      await cliOutput(["calibrate", bot, "--questions", questionsFile, "--json", "--force"]),
    ) as BotCalibrationReport;

  beforeAll(async () => {
    server = await startPostgres();
    process.env[URL_ENV] = server.url;
    dir = await mkdtemp(join(tmpdir(), "second-look-calibrate-pg-"));
    embeddedBot = await makeBot("embeddedbot", { backend: "embedded", collections: COLLECTIONS });
    postgresBot = await makeBot("pgbot", {
      backend: "postgres",
      postgres: { urlEnv: URL_ENV },
      collections: COLLECTIONS,
    });
    questionsFile = join(dir, "questions.jsonl");
    await writeFile(questionsFile, `${questions.map((q) => JSON.stringify(q)).join("\n")}\n`);
    await cliOutput(["index", postgresBot]);
  }, 120_000);

  afterAll(async () => {
    delete process.env[URL_ENV];
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("fits the same model with the same figures as the embedded engine, stored in the database", async () => {
    const embedded = await calibrate(embeddedBot);
    const postgres = await calibrate(postgresBot);
    for (const key of [
      "questions",
      "hits",
      "relevantHits",
      "previous",
      "before",
      "afterHeldOut",
      "afterFitted",
      "model",
    ] as const) {
      expect(postgres[key], key).toEqual(embedded[key]);
    }
    expect(postgres.previous).toBe("shipped");
    expect(postgres.model).not.toEqual(DEFAULT_CALIBRATION);
    expect(postgres.file).toBeNull();
    expect(postgres.storedIn).toMatch(
      /^"second_look"\.calibrations \(bot pgbot\) at PostgreSQL 127\.0\.0\.1:\d+\/postgres$/,
    );
    // Nothing is written into the bot folder: the database is where every host reads it.
    const admin = new pg.Client(server.url);
    await admin.connect();
    try {
      const row = await admin.query(`SELECT calibration FROM second_look.calibrations WHERE bot = 'pgbot'`);
      expect(row.rows[0].calibration.model).toEqual(postgres.model);
      expect(row.rows[0].calibration.fittedOn.count).toBe(questions.length);
    } finally {
      await admin.end();
    }
    // The next fit starts from the bot's own model.
    expect((await calibrate(postgresBot)).previous).toBe("bot");
  }, 120_000);

  it("searches with the bot's stored calibration: relevance, bands and weak flag as on the embedded engine", async () => {
    const backend = await openPostgres();
    try {
      const { engine } = await openEmbeddedEngine(embeddedBot, COLLECTIONS);
      const model = await backend.storedCalibration();
      expect(model).toBeDefined();
      expect(engine.calibrationModel).toEqual(model);
      let differsFromShipped = 0;
      for (const q of [...questions.map((q) => q.text), "beginners pair the kettle", "practice"]) {
        for (const request of [{ query: q }, { query: q, brief: true, limit: 3 }]) {
          const response = await backend.search(request);
          expect(response, q).toEqual(await engine.search(request));
          engine.useCalibration(DEFAULT_CALIBRATION);
          const shipped = engine.searchSync(request);
          engine.useCalibration(model!);
          if (
            JSON.stringify(shipped.results.map((h) => h.relevance)) !==
            JSON.stringify(response.results.map((h) => h.relevance))
          )
            differsFromShipped++;
        }
      }
      // The equality above is the bot's own model at work, not the shipped one on both sides.
      expect(differsFromShipped).toBeGreaterThan(0);
    } finally {
      await backend.close();
    }
  }, 60_000);

  it("stops a search on a stored calibration that does not validate, naming the bot, the table and the key", async () => {
    const admin = new pg.Client(server.url);
    await admin.connect();
    const backend = await openPostgres();
    try {
      await admin.query(
        `UPDATE second_look.calibrations SET calibration = jsonb_set(calibration, '{model,weights}', '[1]') WHERE bot = 'pgbot'`,
      );
      const error = await backend.search({ query: "guide kettle" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BotCalibrationError);
      expect((error as Error).message).toMatch(
        /^bot pgbot: the calibration stored in "second_look"\.calibrations at PostgreSQL 127\.0\.0\.1:\d+\/postgres: model\.weights has 1 weights for 3 features; rerun `second-look calibrate pgbot` or delete the row$/,
      );
      await admin.query(`DELETE FROM second_look.calibrations WHERE bot = 'pgbot'`);
      const { engine } = await openEmbeddedEngine(embeddedBot, COLLECTIONS);
      engine.useCalibration(DEFAULT_CALIBRATION);
      // No row: the shipped model, as on an embedded bot without a calibration file.
      expect(await backend.search({ query: "guide kettle" })).toEqual(
        engine.searchSync({ query: "guide kettle" }),
      );
    } finally {
      await backend.close();
      await admin.end();
    }
  }, 60_000);

  it("warns that a leftover calibration file in a postgres bot's folder is not used", async () => {
    const lines: string[] = [];
    setLogger(
      createLogger({
        level: "warn",
        destination: new Writable({
          write(chunk, _encoding, done) {
            lines.push(String(chunk));
            done();
          },
        }),
      }),
    );
    try {
      await mkdir(join(postgresBot, ".second-look"), { recursive: true });
      await writeFile(calibrationFile(postgresBot), JSON.stringify({ version: 1 }));
      const bot = await loadBot(postgresBot, { quiet: true });
      const opened = await openBotBackend(bot);
      await opened.close();
      expect(lines.join("")).toContain(
        `${calibrationFile(postgresBot)} is not used: a postgres bot's calibration is stored in its database`,
      );
    } finally {
      setLogger(createLogger({ level: "silent" }));
      await rm(join(postgresBot, ".second-look"), { recursive: true, force: true });
    }
  });
});
