import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { readBeir, readBeirCorpus } from "../../src/evaluation/beir.js";
import { readLines } from "../../src/evaluation/line-reader.js";

const fixtures = fileURLToPath(new URL("../fixtures/eval/", import.meta.url));

describe("readBeir on a small fixture", () => {
  it("reads corpus, judged queries only, and graded qrels", async () => {
    const ds = await readBeir(path.join(fixtures, "beir"));
    expect(ds.name).toBe("beir");
    expect(ds.docs.map((d) => d.id)).toEqual(["1", "2", "3", "4"]);
    expect(ds.docs[0]).toEqual({
      id: "1",
      title: "alpha wing flow .",
      text: "alpha wing flow . the wing is studied in a slipstream .",
    });
    expect(ds.queries.map((q) => q.id)).toEqual(["1", "2"]);
    expect(ds.qrels.get("1")).toEqual(
      new Map([
        ["1", 4],
        ["4", 1],
      ]),
    );
    expect(ds.qrels.get("2")).toEqual(
      new Map([
        ["2", 3],
        ["99", 1],
      ]),
    );
    expect(ds.stats).toMatchObject({
      queriesRead: 4,
      unjudgedQueriesDropped: 2,
      relevantJudgments: 4,
      nonRelevantJudgments: 1,
      judgmentsForUnknownQueries: 1,
      judgmentsForUnknownDocs: 1,
    });
  });

  it("streams the corpus with file:line locations", async () => {
    const ids: string[] = [];
    const locations: string[] = [];
    for await (const doc of readBeirCorpus(path.join(fixtures, "beir", "corpus.jsonl"))) {
      ids.push(doc.id);
      locations.push(doc.location.slice(doc.location.lastIndexOf(":")));
    }
    expect(ids).toEqual(["1", "2", "3", "4"]);
    expect(locations).toEqual([":1", ":2", ":3", ":4"]);
  });
});

describe("readBeir errors", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function beirDir(files: { corpus?: string; queries?: string; qrels?: string; split?: string }) {
    dir = await mkdtemp(path.join(tmpdir(), "second-look-beir-"));
    await mkdir(path.join(dir, "qrels"));
    await writeFile(path.join(dir, "corpus.jsonl"), files.corpus ?? '{"_id":"d1","title":"t","text":"x"}\n');
    await writeFile(path.join(dir, "queries.jsonl"), files.queries ?? '{"_id":"q1","text":"x"}\n');
    await writeFile(
      path.join(dir, "qrels", `${files.split ?? "test"}.tsv`),
      files.qrels ?? "query-id\tcorpus-id\tscore\nq1\td1\t1\n",
    );
    return dir;
  }

  it("names the file and line of malformed JSON", async () => {
    const d = await beirDir({ corpus: '{"_id":"d1","text":"a"}\n\n{"_id":"d2","text":"b"\n' });
    await expect(readBeir(d)).rejects.toThrow(/corpus\.jsonl:3: malformed JSON/);
  });

  it("names the file and line of a record without _id or text", async () => {
    const d1 = await beirDir({ queries: '{"_id":"q1","text":"x"}\n{"text":"y"}\n' });
    await expect(readBeir(d1)).rejects.toThrow(/queries\.jsonl:2: missing or empty "_id"/);
    await rm(d1, { recursive: true });
    const d2 = await beirDir({ corpus: '{"_id":"d1","title":"t"}\n' });
    await expect(readBeir(d2)).rejects.toThrow(/corpus\.jsonl:1: "text" must be a string/);
    await rm(d2, { recursive: true });
    const d3 = await beirDir({ corpus: "[1,2]\n" });
    await expect(readBeir(d3)).rejects.toThrow(/corpus\.jsonl:1: expected a JSON object/);
  });

  it("rejects duplicate document ids", async () => {
    const d = await beirDir({ corpus: '{"_id":"d1","text":"a"}\n{"_id":"d1","text":"b"}\n' });
    await expect(readBeir(d)).rejects.toThrow(/corpus\.jsonl:2: duplicate _id "d1"/);
  });

  it("names the file and line of a bad qrels score; only the first line may be a header", async () => {
    const d = await beirDir({ qrels: "query-id\tcorpus-id\tscore\nq1\td1\tyes\n" });
    await expect(readBeir(d)).rejects.toThrow(/test\.tsv:2: score "yes" is not a number/);
  });

  it("accepts qrels without a header, space-separated, and reads another split", async () => {
    const d = await beirDir({ qrels: "q1 d1 2\nq1 d2 0\n", split: "dev" });
    const ds = await readBeir(d, { split: "dev", name: "mine" });
    expect(ds.name).toBe("mine");
    expect(ds.qrels).toEqual(new Map([["q1", new Map([["d1", 2]])]]));
    expect(ds.stats?.nonRelevantJudgments).toBe(1);
  });

  it("drops queries whose judgments are all <= 0", async () => {
    const d = await beirDir({
      queries: '{"_id":"q1","text":"x"}\n{"_id":"q2","text":"y"}\n',
      qrels: "query-id\tcorpus-id\tscore\nq1\td1\t0\nq2\td1\t-1\nq2\td1\t1\n",
    });
    const ds = await readBeir(d);
    expect(ds.queries.map((q) => q.id)).toEqual(["q2"]);
    expect([...ds.qrels.keys()]).toEqual(["q2"]);
  });

  it("a later non-relevant line removes an earlier relevant one for the same pair", async () => {
    const d = await beirDir({ qrels: "q1\td1\t2\nq1\td1\t0\n" });
    const ds = await readBeir(d);
    expect(ds.queries).toEqual([]);
    expect(ds.qrels.size).toBe(0);
  });
});

describe("readLines", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("handles CRLF, a BOM, a missing final newline and multi-byte text across chunks", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "second-look-lines-"));
    const file = path.join(dir, "x.txt");
    const long = "æøå".repeat(40_000);
    await writeFile(file, `\uFEFFfirst\r\n${long}\n\nlast`);
    const lines = [];
    for await (const line of readLines(file)) lines.push(line);
    expect(lines.map((l) => l.number)).toEqual([1, 2, 3, 4]);
    expect(lines.map((l) => l.text)).toEqual(["first", long, "", "last"]);
  });

  it("rejects on a missing file", async () => {
    const consume = async () => {
      for await (const _ of readLines(path.join(tmpdir(), "second-look-no-such-file.txt"))) {
        // nothing: the read itself must fail
      }
    };
    await expect(consume()).rejects.toThrow(/ENOENT/);
  });
});
