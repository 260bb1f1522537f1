// The rule lives beside editDistance (src/edit-distance.ts), a root module, so the tool
// arguments' schema (src/knowledge-tool/tool-arguments.ts) suggests keys by the same rule as config.json.
export { closestKey } from "../edit-distance.js";
