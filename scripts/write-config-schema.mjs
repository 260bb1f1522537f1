#!/usr/bin/env node
// Writes config.schema.json (the JSON Schema of a bot's config.json, shipped in the package)
// from the compiled zod schema in dist/ (src/bots/config-json-schema.ts says how). `npm run
// build` and `prepare` run it after TypeScript; test/bots/config-json-schema.test.ts fails when
// the committed file differs from what this writes.
import { writeFileSync } from "node:fs";

const root = new URL("..", import.meta.url);
const { CONFIG_SCHEMA_FILE, configJsonSchemaText } = await import(
  new URL("dist/bots/config-json-schema.js", root).href
);
writeFileSync(new URL(CONFIG_SCHEMA_FILE, root), configJsonSchemaText());
