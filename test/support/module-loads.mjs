// Preloaded into a CLI process (NODE_OPTIONS=--import) by test/cli/search-loads.test.ts: writes
// each module the process loads to stderr, "loaded <url>" for an ES module, "required <name>"
// for a CommonJS require (pino, pino-pretty and the stemmers are required, not imported).
import Module, { register } from "node:module";

register(new URL("./module-loads-hooks.mjs", import.meta.url));
const load = Module._load;
Module._load = function (request, ...rest) {
  process._rawDebug(`required ${request}`);
  return load.call(this, request, ...rest);
};
