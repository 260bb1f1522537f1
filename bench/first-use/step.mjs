// One measured CLI run in a process of its own: imports a checkout's built CLI (dist/) and runs
// `second-look <args>`, then reports its wall time and the CPU time of the whole process (every
// thread: the parser threads included) on stderr's last line as {"firstUse":{...}}.
const [checkout, ...args] = process.argv.slice(2);
const started = performance.now();
const { main } = await import(`${checkout}/dist/cli/main.js`);
await main(args);
process.on("exit", () => {
  const cpu = process.cpuUsage();
  const figures = { wallMs: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000 };
  process.stderr.write(`\n${JSON.stringify({ firstUse: figures })}\n`);
});
