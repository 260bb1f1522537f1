import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { cranfieldGain, readCranfield } from "../../src/evaluation/cranfield.js";
import { canonicalSmartId, readSmartRecords } from "../../src/evaluation/smart.js";

const fixtures = fileURLToPath(new URL("../fixtures/eval/", import.meta.url));

describe("readCranfield on a small SMART fixture", () => {
  it("reads documents: id, title and text with line breaks collapsed, .A/.B ignored", async () => {
    const ds = await readCranfield(path.join(fixtures, "smart"));
    expect(ds.name).toBe("smart");
    expect(ds.docs).toEqual([
      {
        id: "1",
        title: "alpha wing flow .",
        text: "alpha wing flow . the wing is studied in a slipstream .",
      },
      { id: "2", title: "beta shock", text: "beta shock wave ." },
      { id: "3", title: "", text: "" },
      // ".5 per cent" starts a line with a dot but is text, not a field marker.
      { id: "4", title: "gamma layer", text: "gamma boundary layer . .5 per cent thick ." },
    ]);
  });

  it("numbers queries 1..N in file order (cran.qry's .I is not sequential) and keeps judged ones", async () => {
    const ds = await readCranfield(path.join(fixtures, "smart"));
    expect(ds.queries).toEqual([
      { id: "1", text: "what is the alpha wing ." },
      { id: "2", text: "shock waves ?" },
    ]);
  });

  it("maps grades 1..4 to gain 5 - grade; -1, 0 and 5 are not relevant; the last line for a pair wins", async () => {
    const ds = await readCranfield(path.join(fixtures, "smart"));
    expect(ds.qrels).toEqual(
      new Map([
        [
          "1",
          new Map([
            ["1", 4],
            ["4", 1],
          ]),
        ],
        [
          "2",
          new Map([
            ["2", 3],
            ["99", 1],
          ]),
        ],
      ]),
    );
    expect(ds.stats).toEqual({
      queriesRead: 4,
      unjudgedQueriesDropped: 2,
      relevantJudgments: 4,
      nonRelevantJudgments: 5,
      judgmentsForUnknownQueries: 1,
      judgmentsForUnknownDocs: 1,
    });
  });

  it("cranfieldGain", () => {
    expect([1, 2, 3, 4].map(cranfieldGain)).toEqual([4, 3, 2, 1]);
    expect([-1, 0, 5, 6, 2.5, Number.NaN].map(cranfieldGain)).toEqual([0, 0, 0, 0, 0, 0]);
  });
});

describe("SMART parsing errors and ids", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function withFiles(files: Record<string, string>): Promise<string> {
    dir = await mkdtemp(path.join(tmpdir(), "second-look-smart-"));
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
    return dir;
  }

  const okDocs = ".I 1\n.T\nt\n.W\nw\n";
  const okQueries = ".I 1\n.W\nq\n";

  it("names file and line for a malformed judgment line", async () => {
    const d = await withFiles({ "cran.all.1400": okDocs, "cran.qry": okQueries, cranqrel: "1 1 2\n1 1\n" });
    await expect(readCranfield(d)).rejects.toThrow(/cranqrel:2: expected "query doc grade"/);
  });

  it("names file and line for a non-numeric grade", async () => {
    const d = await withFiles({ "cran.all.1400": okDocs, "cran.qry": okQueries, cranqrel: "1 1 high\n" });
    await expect(readCranfield(d)).rejects.toThrow(/cranqrel:1: grade "high" is not a number/);
  });

  it("rejects text before the first record and duplicate document ids", async () => {
    const d1 = await withFiles({
      "cran.all.1400": "stray\n.I 1\n.W\nw\n",
      "cran.qry": okQueries,
      cranqrel: "",
    });
    await expect(readCranfield(d1)).rejects.toThrow(/cran\.all\.1400:1: text outside any field/);
    await rm(d1, { recursive: true });
    const d2 = await withFiles({
      "cran.all.1400": `${okDocs}.I 01\n.W\nx\n`,
      "cran.qry": okQueries,
      cranqrel: "",
    });
    await expect(readCranfield(d2)).rejects.toThrow(/cran\.all\.1400:6: duplicate document id 1/);
  });

  it("fails clearly when a file is missing", async () => {
    const d = await withFiles({ "cran.all.1400": okDocs, "cran.qry": okQueries });
    await expect(readCranfield(d)).rejects.toThrow(/cranqrel/);
  });

  it("keeps a value on the marker line and appends a repeated field", async () => {
    const d = await withFiles({ "x.smart": ".I 7\n.T inline title\n.W\none\n.W\ntwo\n" });
    const records = [];
    for await (const r of readSmartRecords(path.join(d, "x.smart"))) records.push(r);
    expect(records).toHaveLength(1);
    expect(records[0]!.id).toBe("7");
    expect(records[0]!.fields.get("T")).toBe("inline title");
    expect(records[0]!.fields.get("W")).toBe("one\ntwo");
  });

  it("canonicalSmartId strips zero padding without rounding", () => {
    expect(canonicalSmartId("001")).toBe("1");
    expect(canonicalSmartId("0")).toBe("0");
    expect(canonicalSmartId(" 12 ")).toBe("12");
    expect(canonicalSmartId("00123456789012345678901")).toBe("123456789012345678901");
    expect(canonicalSmartId("doc-7")).toBe("doc-7");
  });
});
