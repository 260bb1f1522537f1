// `second-look index <bot>`: build or refresh a bot's index (embedded, or its PostgreSQL tables).

import { backendEntry } from "../backends/registry.js";
import { resolveBot } from "../bots/bot-resolver.js";
import type { BotDefinition } from "../bots/discovery.js";
import { openBotBackend } from "../connectors/open-bot-backend.js";
import { correctiveOffNote } from "../corrective/corrective-config.js";
import { DEFAULT_LANGUAGE } from "../knowledge/analysis/registry.js";
import { detectedLanguageLine } from "../knowledge/analysis/unset-language.js";
import { describeUnreadTypes } from "../knowledge/documents/document-format.js";
import { type RefreshReport, skipsByKind } from "../knowledge/index/refresh.js";
import { progressReporter } from "./progress.js";
import { plural, terminalText } from "./terminal-text.js";

export async function runIndex(
  botRef: string,
  options: { json: boolean },
  io: { stdout: NodeJS.WritableStream },
): Promise<number> {
  const bot = await resolveBot(botRef, { quiet: options.json });
  const { reports, ms } = await indexBot(bot, { progress: !options.json });
  const corrective = correctiveOffNote(bot);
  if (options.json) {
    io.stdout.write(
      `${JSON.stringify({ bot: bot.name, ms, collections: reports, correctiveRetrieval: bot.corrective.enabled })}\n`,
    );
  } else {
    for (const r of reports) io.stdout.write(terminalText(`${summary(r)}\n`));
    const server = backendEntry(bot.config.knowledge.backend).remoteServer?.(bot.config.knowledge);
    // Without this the command would print nothing at all: there is no index of ours to build.
    if (server && reports.length === 0) {
      io.stdout.write(
        terminalText(
          `${bot.name} searches ${server}, which indexes its own collections: nothing to index here\n`,
        ),
      );
    }
    // Last, where the owner reads on: the pass is off, and the key that turns it on.
    if (corrective) io.stdout.write(terminalText(`${corrective}\n`));
  }
  return 0;
}

/** Builds or refreshes a bot's index with a progress bar on a terminal; what each collection's refresh did. */
export async function indexBot(
  bot: BotDefinition,
  options: { progress: boolean },
): Promise<{ reports: RefreshReport[]; ms: number }> {
  const progress = progressReporter(options.progress);
  const started = performance.now();
  let opened: Awaited<ReturnType<typeof openBotBackend>>;
  try {
    opened = await openBotBackend(bot, { onProgress: progress.update, index: true });
  } finally {
    progress.stop();
  }
  const { reports } = opened;
  await opened.close();
  return { reports, ms: Math.round(performance.now() - started) };
}

/**
 * One line per collection, then one line per skipped file saying why, in words (files of types no
 * loader reads: one line for all of them, counted per extension).
 */
export function summary(r: RefreshReport): string {
  if (r.files === 0 && r.removed === 0 && r.skipped.length === 0) {
    return `${r.collection}: no files match its paths (check knowledge.collections.${r.collection}.paths in config.json) · ${r.ms} ms`;
  }
  const changes = `${r.added} added, ${r.updated} updated, ${r.removed} removed, ${r.unchanged} unchanged`;
  const skipped = r.skipped.length ? `, ${r.skipped.length} skipped` : "";
  const lines = [`${r.collection}: ${plural(r.files, "file")} · ${changes}${skipped} · ${r.ms} ms`];
  // A collection with no `language` found to be in another language than English: what it is
  // analysed in, and how to change that (English is what an unset collection always was).
  const detected = r.detectedLanguage;
  if (detected && detected.tag !== DEFAULT_LANGUAGE)
    lines.push(`  ${detectedLanguageLine(r.collection, detected)}`);
  const { byType, others } = skipsByKind(r.skipped);
  for (const s of others) lines.push(`  skipped ${s.path}: ${s.reason}`);
  if (byType) lines.push(`  skipped ${describeUnreadTypes(byType)}`);
  return lines.join("\n");
}
