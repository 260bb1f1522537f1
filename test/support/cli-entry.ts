// `second-look` in a process of its own (see cli-process.ts): its peak RSS and CPU time, threads
// included, are written to stderr as the last line when it exits.
import { main } from "../../src/cli/main.js";

await main(process.argv.slice(2));
process.on("exit", () => {
  const usage = process.resourceUsage();
  const cpuMs = Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000);
  process.stderr.write(`\n${JSON.stringify({ maxRssKb: usage.maxRSS, cpuMs })}\n`);
});
