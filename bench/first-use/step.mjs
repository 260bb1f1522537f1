// One measured CLI run in a process of its own: starts a checkout's built CLI as
// bin/second-look.js does (dist/cli-bundle/main.cjs through the code cache when the build made it,
// an earlier build's dist/cli-bundle/main.js, else dist/cli/) and runs `second-look <args>`, then
// reports its wall time, the CPU time of the whole process (every thread: the parser threads
// included) and its peak resident memory on stderr's last line as {"firstUse":{...}}.
import { existsSync } from "node:fs";

const [checkout, ...args] = process.argv.slice(2);
const started = performance.now();
const cjs = `${checkout}/dist/cli-bundle/main.cjs`;
const esm = `${checkout}/dist/cli-bundle/main.js`;
if (existsSync(cjs)) {
  const { runBundle } = await import(`${checkout}/dist/cli/code-cache.js`);
  await runBundle(cjs, args[0]).exports.main(args);
} else {
  const { main } = await import(existsSync(esm) ? esm : `${checkout}/dist/cli/main.js`);
  await main(args);
}
process.on("exit", () => {
  const cpu = process.cpuUsage();
  const figures = {
    wallMs: performance.now() - started,
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakMiB: process.resourceUsage().maxRSS / 1024,
  };
  process.stderr.write(`\n${JSON.stringify({ firstUse: figures })}\n`);
});
