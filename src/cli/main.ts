// The `second-look` command. Subcommands live one per file and are imported lazily so that a
// quick command (`grade`) does not pay for loading the engine or the Copilot SDK.
import { Command, CommanderError } from "commander";
import { packageVersion } from "../telemetry/package-version.js";
import { errorLine } from "./cli-error.js";
import type { EvalOptions } from "./eval.js";
import { isUsageError, oneLineUsageErrors, USAGE_EXIT_CODE } from "./usage-errors.js";

type Io = { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };
/** Wraps a command's body: records its name for the error line and sets the exit code. */
type Runner = (name: string, fn: () => Promise<number>) => () => Promise<void>;

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export async function main(argv: string[], io: Io = { stdout: process.stdout, stderr: process.stderr }) {
  let command = "";
  const run = (name: string, fn: () => Promise<number>) => async () => {
    command = name;
    process.exitCode = await fn();
  };
  const program = new Command()
    .name("second-look")
    .description("Corrective retrieval for chat bots that answer from documents.")
    .version(packageVersion(), "-V, --version", "print the version")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });

  addInitCommand(program, run, io);
  addBotCommands(program, run, io);
  addServingCommands(program, run, io);
  addEvaluationCommands(program, run, io);
  oneLineUsageErrors(program);

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander already printed its message (or the help/version text).
      process.exitCode = isUsageError(error) ? USAGE_EXIT_CODE : error.exitCode;
      return;
    }
    io.stderr.write(errorLine(command || "error", error));
    process.exitCode = (error as { exitCode?: number }).exitCode ?? 1;
  }
}

/** init: a bot from a folder of documents, indexed, in one command. */
function addInitCommand(program: Command, run: Runner, io: Io): void {
  program
    .command("init")
    .description(
      "make a bot from a folder of documents: config.json, persona.md, the index, and what to run next",
    )
    .argument("<folder>", "the bot folder to create (its documents too, unless --from names them)")
    .option(
      "--from <docs>",
      "the folder holding the documents (copied into <folder>/documents when outside it)",
    )
    .option(
      "--url <template>",
      "where the documents are published, e.g. https://docs.example.com/{path}: hits link to their page",
    )
    .option("--force", "replace the folder's config.json and persona.md")
    .option("--json", "machine-readable output")
    .action((folder: string, opts: { from?: string; url?: string; force?: boolean; json?: boolean }) =>
      run("init", async () =>
        (await import("./init.js")).runInit(folder, { ...opts, json: !!opts.json }, io),
      )(),
    );
}

/** bots, index, search, ask: one bot's index and answers, from the terminal. */
function addBotCommands(program: Command, run: Runner, io: Io): void {
  program
    .command("bots")
    .description(
      "bots found under ./bots and the working directory (or those named), with their resolved state",
    )
    .argument("[bot...]", "names under ./bots or paths to bot folders (default: every bot found)")
    .option("--json", "machine-readable output")
    .action((refs: string[], opts: { json?: boolean }) =>
      run("bots", async () => (await import("./bots.js")).runBots({ json: !!opts.json, refs }, io))(),
    );

  program
    .command("index")
    .description("build or refresh a bot's index (embedded, or its PostgreSQL tables)")
    .argument("<bot>", "a name under ./bots or a path to a bot folder")
    .option("--json", "machine-readable output")
    .action((bot: string, opts: { json?: boolean }) =>
      run("index", async () => (await import("./index-bot.js")).runIndex(bot, { json: !!opts.json }, io))(),
    );

  program
    .command("search")
    .description("search a bot's knowledge as its model would, with the text the model would see")
    .argument("<bot>", "a name under ./bots or a path to a bot folder")
    .argument("<query...>", "the query")
    .option("--collection <name>", "search only this collection (repeatable)", collect)
    .option("--limit <n>", "maximum number of hits (1-100, default 10)")
    .option("--brief", "brief mode: one snippet per hit")
    .option("--no-correct", "skip the corrective pass")
    .option("--json", "machine-readable output")
    .action(
      (
        bot: string,
        query: string[],
        opts: { collection?: string[]; limit?: string; brief?: boolean; correct: boolean; json?: boolean },
      ) =>
        run("search", async () =>
          (await import("./search.js")).runSearch(bot, query.join(" "), { ...opts, json: !!opts.json }, io),
        )(),
    );

  program
    .command("ask")
    .description("ask a bot; without a model configured, the corrected search results for the question")
    .argument("<bot>", "a name under ./bots or a path to a bot folder")
    .argument("<question...>", "the question")
    .option("--trace", "print the span tree on stderr")
    .option("--answer", "an answer from the bot's model with citations (document, pages, quote)")
    .option("--json", "machine-readable output")
    .action((bot: string, question: string[], opts: { trace?: boolean; json?: boolean; answer?: boolean }) =>
      run("ask", async () =>
        (await import("./ask.js")).runAsk(
          bot,
          question.join(" "),
          { trace: !!opts.trace, json: !!opts.json, answer: !!opts.answer },
          io,
        ),
      )(),
    );
}

/** serve, grade, mcp: the long-running servers and the stdin grader. */
function addServingCommands(program: Command, run: Runner, io: Io): void {
  program
    .command("serve")
    .description("answer in Slack and Teams: every bot with platform credentials, until SIGTERM")
    .option(
      "--bots <bots>",
      "serve only these bots: names under ./bots or paths to bot folders (comma-separated)",
    )
    .option("--concurrency <n>", "questions each bot answers at once (default 4)")
    .option("--max-queue <n>", "questions each bot lets wait before replying that it is busy (default 100)")
    .option("--shutdown-timeout <seconds>", "time to finish answers in flight on SIGTERM (default 30)")
    .option("--host <address>", "interface for the HTTP listeners (default: all)")
    .action(
      (opts: {
        bots?: string;
        concurrency?: string;
        maxQueue?: string;
        shutdownTimeout?: string;
        host?: string;
      }) => run("serve", async () => (await import("./serve.js")).runServe(opts, io))(),
    );

  program
    .command("grade")
    .description("signal grade of a tool-result text read from stdin")
    .option("--json", "machine-readable output")
    .action((opts: { json?: boolean }) =>
      run("grade", async () =>
        (await import("./grade.js")).runGrade({ json: !!opts.json }, { stdin: process.stdin, ...io }),
      )(),
    );

  program
    .command("mcp")
    .description(
      "serve a bot's knowledge as an MCP server (corrective pass inside the search tool): on stdio, or over Streamable HTTP with --http",
    )
    .argument("<bot...>", "names under ./bots or paths to bot folders (several only with --http)")
    .option(
      "--http <[host:]port>",
      "Streamable HTTP at /mcp (/mcp/<bot> for several bots); host default 127.0.0.1",
    )
    .option("--tokens-file <file>", "bearer tokens with what each may use, one per line (docs/mcp.md)")
    .option("--max-body <bytes>", "largest request body accepted (default 1048576)")
    .option("--rate <n>", "requests per minute per token (default 600)")
    .option("--max-calls <n>", "tool calls run at once, the rest wait in turn (default 128)")
    .option("--shutdown-timeout <seconds>", "time to finish requests in flight on SIGTERM (default 30)")
    .action((bots: string[], opts: import("./mcp.js").McpOptions) =>
      run("mcp", async () => (await import("./mcp.js")).runMcp(bots, opts, io))(),
    );
}

/** eval, calibrate: measuring a bot or a judged collection, and refitting its calibration. */
function addEvaluationCommands(program: Command, run: Runner, io: Io): void {
  program
    .command("eval")
    .description(
      "judge a bot on its users' questions (--questions), or the engine on a judged collection (--format)",
    )
    .argument("<bot-or-dir>", "a bot (with --questions), or a judged collection's folder (with --format)")
    .option(
      "--questions <files>",
      "judged questions (id, text, kind, relevant paths; docs/evaluation.md): a .jsonl file, a comma-separated list or a glob, each reported on its own",
    )
    .option(
      "--compare <settings>",
      "corrective settings side by side: bot,off,signal,haiku,auto (comma-separated)",
    )
    .option("--format <format>", "cranfield | beir (a judged collection instead of a bot)")
    .option(
      "--fail-under <gates>",
      "CI gates, e.g. hit5=0.6,falseAlarms<=0.2 (exit 4 when one fails; docs/evaluation.md)",
    )
    .option("--report <file.html>", "also write a self-contained HTML report with charts")
    .option("--lenient", "a relevant path matching no document is a warning, not an error")
    .option("--json", "machine-readable output")
    .action((target: string, opts: Omit<EvalOptions, "json"> & { json?: boolean }) =>
      run("eval", async () =>
        (await import("./eval.js")).runEval(target, { ...opts, json: !!opts.json }, io),
      )(),
    );

  program
    .command("calibrate")
    .description("refit a bot's relevance calibration on its own judged questions (stored with its index)")
    .argument("<bot>", "a name under ./bots or a path to a bot folder")
    .requiredOption(
      "--questions <file.jsonl>",
      "judged questions: id, text, kind, relevant paths (docs/evaluation.md)",
    )
    .option("--dry-run", "measure and fit, store nothing")
    .option("--force", "store the fit even when, held-out, it is no improvement (says what gets worse)")
    .option("--json", "machine-readable output")
    .action((bot: string, opts: { questions: string; dryRun?: boolean; force?: boolean; json?: boolean }) =>
      run("calibrate", async () =>
        (await import("./calibrate.js")).runCalibrate(
          bot,
          { questions: opts.questions, dryRun: !!opts.dryRun, force: !!opts.force, json: !!opts.json },
          io,
        ),
      )(),
    );
}
