// `second-look` in a process of its own (see cli-process.ts): its peak RSS, threads included, is
// written to stderr as the last line when it exits.
import { main } from "../../src/cli/main.js";

await main(process.argv.slice(2));
process.on("exit", () => {
  process.stderr.write(`\n${JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS })}\n`);
});
