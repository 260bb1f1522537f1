// Issue 24, L10: a file whose name is not valid UTF-8 is listed with U+FFFD in place of its
// bytes, a name no file has. It is skipped with a reason that says so and what to do, never
// reported as a missing file ("cannot stat: ENOENT … bad\uFFFDname.md"); the other files index.
// Issue 32, D6: a folder with such a name was passed over in silence, the files in it left out
// with no word: it is now skipped by name, with the cause and the fix.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IndexStore } from "../../src/knowledge/index/index-store.js";
import { refreshCollection } from "../../src/knowledge/index/refresh.js";

let bot: string;
beforeAll(async () => {
  bot = await mkdtemp(join(tmpdir(), "second-look-non-utf8-"));
  await mkdir(join(bot, "docs"));
  await writeFile(join(bot, "docs", "good.md"), "# Good\n\nA readable name.\n");
  // bad<0xff>name.md: a Latin-1 name on a UTF-8 file system.
  await writeFile(
    Buffer.concat([Buffer.from(join(bot, "docs", "bad")), Buffer.from([0xff]), Buffer.from("name.md")]),
    "# Bad name\n\nThe body is fine.\n",
  );
});

let nested: string;
beforeAll(async () => {
  nested = await mkdtemp(join(tmpdir(), "second-look-non-utf8-folder-"));
  await mkdir(join(nested, "docs"));
  await writeFile(join(nested, "docs", "good.md"), "# Good\n\nA readable name.\n");
  // docs/caf<0xe9>/menu.md: a Latin-1 folder name holding a file with a readable name.
  const folder = Buffer.concat([Buffer.from(join(nested, "docs", "caf")), Buffer.from([0xe9])]);
  await mkdir(folder);
  await writeFile(Buffer.concat([folder, Buffer.from("/menu.md")]), "# Menu\n\nSoup of the day.\n");
});
afterAll(async () => {
  if (nested) await rm(nested, { recursive: true, force: true });
});

afterAll(async () => {
  if (bot) await rm(bot, { recursive: true, force: true });
});

describe("a file name that is not valid UTF-8", () => {
  it("is skipped with a reason naming the cause and the fix; the rest is indexed", async () => {
    const store = new IndexStore(join(bot, ".second-look", "index"));
    const { documents, report } = await refreshCollection(
      bot,
      { name: "docs", paths: ["docs/**/*.md"] },
      store,
    );
    expect(documents.map((d) => d.path)).toEqual(["docs/good.md"]);
    expect(report.skipped).toHaveLength(1);
    expect(report.skipped[0]!.path).toBe("docs/bad\uFFFDname.md");
    expect(report.skipped[0]!.reason).toMatch(/file name is not valid UTF-8 .*rename the file to index it/);
    expect(report.skipped[0]!.reason).not.toMatch(/ENOENT|cannot stat/);
  });
});

describe("a folder name that is not valid UTF-8", () => {
  it("is skipped by name with the cause and the fix, never left out in silence; the rest is indexed", async () => {
    const store = new IndexStore(join(nested, ".second-look", "index"));
    const { documents, report } = await refreshCollection(
      nested,
      { name: "docs", paths: ["docs/**/*.md"] },
      store,
    );
    expect(documents.map((d) => d.path)).toEqual(["docs/good.md"]);
    expect(report.skipped).toEqual([
      {
        path: "docs/caf\uFFFD/",
        reason: expect.stringMatching(/folder name is not valid UTF-8 .*rename the folder to index them$/),
      },
    ]);
  });

  it("a glob that never enters the folder says nothing of it", async () => {
    const store = new IndexStore(join(nested, ".second-look", "index-top"));
    const { report } = await refreshCollection(nested, { name: "top", paths: ["docs/*.md"] }, store);
    expect(report.skipped).toEqual([]);
  });
});
