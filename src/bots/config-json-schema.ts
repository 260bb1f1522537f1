// The JSON Schema of a bot's config.json, generated from the zod schema (config-schema.ts, the
// one source of truth), so editors complete and check the file: a config.json that starts with
// `"$schema": "./node_modules/second-look/config.schema.json"` (or a path to it in a clone) is
// read against it. The package ships it as config.schema.json (scripts/write-config-schema.mjs
// writes it at build; test/bots/config-json-schema.test.ts fails when the committed one is stale).
// Rules that zod checks in code (a backend's required block, a supported language tag) are not
// in the JSON Schema; `second-look bots` reports them.
import * as z from "zod";
import { CONFIG_OPTIONS } from "./config-options.js";
import { BotConfigSchema } from "./config-schema.js";

/** Where the package ships it, relative to the package root. */
export const CONFIG_SCHEMA_FILE = "config.schema.json";

export function configJsonSchema(): Record<string, unknown> {
  // "input": what a config.json may contain, so keys with defaults are optional.
  const schema = z.toJSONSchema(BotConfigSchema, { io: "input", unrepresentable: "any" }) as JsonSchemaNode;
  // Each option's one line of documentation (config-options.ts), for the editor's hover text.
  for (const option of CONFIG_OPTIONS) {
    const node = nodeAt(schema, option.key.split("."));
    if (node) node.description = option.description;
  }
  return {
    ...schema,
    title: "second-look bot config.json",
    description:
      "A bot folder's config.json (docs/configuration.md). Generated from src/bots/config-schema.ts.",
  };
}

/** The file's text: two-space JSON and a final newline. */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}

interface JsonSchemaNode {
  description?: string;
  properties?: Record<string, JsonSchemaNode>;
  additionalProperties?: JsonSchemaNode | boolean;
  anyOf?: JsonSchemaNode[];
}

/** The schema of a key path (`<name>` steps into a record's values), or undefined. */
function nodeAt(root: JsonSchemaNode, path: readonly string[]): JsonSchemaNode | undefined {
  let node: JsonSchemaNode | undefined = root;
  for (const step of path) {
    // An object that may also be something else (a union) has its properties in one branch.
    const isObject = (n: JsonSchemaNode) =>
      n.properties !== undefined || typeof n.additionalProperties === "object";
    const object: JsonSchemaNode | undefined = node && isObject(node) ? node : node?.anyOf?.find(isObject);
    const next: JsonSchemaNode | boolean | undefined = step.startsWith("<")
      ? object?.additionalProperties
      : object?.properties?.[step];
    if (next === undefined || typeof next === "boolean") return undefined;
    node = next;
  }
  return node;
}
