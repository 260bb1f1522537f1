// Issue 32, D12: a bot folder reached through a symlink (a deploy's `current -> release-1`) with
// no persona.md failed every command with "persona outside the bot folder": the folder was
// compared as resolved and the missing file as written. Every "inside the bot folder" check now
// compares both resolved (knowledge/documents/inside-folder.ts): the symlinked folder works, and
// a symlink out of it is still refused — for the persona and for the documents a glob names.
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBotFromDir } from "../../src/bots/discovery.js";
import { isInsideFolder } from "../../src/knowledge/documents/inside-folder.js";
import { IndexStore } from "../../src/knowledge/index/index-store.js";
import { refreshCollection } from "../../src/knowledge/index/refresh.js";
import { runCli } from "../support/run-cli.js";

let root: string;
const config = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    knowledge: { backend: "embedded", collections: { docs: { paths: ["docs/**/*.md"] } } },
    ...extra,
  });

async function release(name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, "docs"), { recursive: true });
  await writeFile(join(dir, "docs", "leave.md"), "# Leave\n\nEvery employee gets 25 vacation days a year.\n");
  await writeFile(join(dir, "config.json"), config(extra));
  return dir;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "second-look-symlinked-bot-"));
  await writeFile(join(root, "secret.txt"), "not a persona");
  await mkdir(join(root, "outside"));
  await writeFile(join(root, "outside", "secret.md"), "# Secret\n\nNot the bot's to publish.\n");
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe("a bot folder reached through a symlink", () => {
  it("with no persona.md loads with the default persona, and `search` answers", async () => {
    await release("release-1");
    await symlink("release-1", join(root, "current"));
    const bot = await loadBotFromDir(join(root, "current"), {}, root);
    expect(bot.persona).toMatch(/^You are current, an assistant/);
    const run = await runCli(["search", join(root, "current"), "vacation days", "--json"]);
    expect(run.stderr).not.toContain("outside the bot folder");
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain("docs/leave.md");
    // `search` indexes first, in a parser thread that loads through tsx in tests: seconds when busy.
  }, 60_000);

  it("a persona that is a symlink out of it is still refused", async () => {
    const dir = await release("release-2", { persona: "voice.md" });
    await symlink(join(root, "secret.txt"), join(dir, "voice.md"));
    await symlink("release-2", join(root, "current-2"));
    await expect(loadBotFromDir(join(root, "current-2"), {}, root)).rejects.toThrow(
      /persona: "voice\.md" .* is outside the bot folder/,
    );
  });

  it("the rule: a missing file inside a symlinked folder is inside; a path climbing out is not", async () => {
    await release("release-3");
    await symlink("release-3", join(root, "current-3"));
    expect(await isInsideFolder(join(root, "current-3", "persona.md"), join(root, "current-3"))).toBe(true);
    expect(await isInsideFolder(join(root, "current-3", "new", "deeper.md"), join(root, "release-3"))).toBe(
      true,
    );
    expect(await isInsideFolder(join(root, "current-3", "..", "secret.txt"), join(root, "current-3"))).toBe(
      false,
    );
    expect(await isInsideFolder(join(root, "current-3"), join(root, "current-3"))).toBe(false);
  });

  it("a glob naming a symlinked folder that leads out of the bot folder indexes none of it, and says so", async () => {
    const dir = await release("release-4");
    await symlink(join(root, "outside"), join(dir, "shared"));
    await symlink("release-4", join(root, "current-4"));
    const bot = join(root, "current-4");
    // The glob's own folder is where the walk starts, and a walk starts through a symlink.
    const { documents, report } = await refreshCollection(
      bot,
      { name: "shared", paths: ["shared/*.md"] },
      new IndexStore(join(bot, ".second-look", "index")),
    );
    expect(documents).toEqual([]);
    expect(report.skipped).toEqual([
      { path: "shared/secret.md", reason: "outside the bot folder once symlinks are resolved" },
    ]);
  });
});
