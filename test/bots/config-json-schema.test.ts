// config.schema.json (issue 23, conventions): generated from the zod schema, current, and a
// real JSON Schema that an editor's validator applies as zod does to what it can express.
// ajv is the validator the MCP SDK (a dependency) already brings; it is used here only.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { CONFIG_SCHEMA_FILE, configJsonSchemaText } from "../../src/bots/config-json-schema.js";
import { validateBotConfig } from "../../src/bots/load-config.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const committed = readFileSync(join(REPO, CONFIG_SCHEMA_FILE), "utf8");
const example = JSON.parse(readFileSync(join(REPO, "config.json.example"), "utf8")) as Record<
  string,
  unknown
>;

function validator() {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  return ajv.compile(JSON.parse(committed) as object);
}

describe("config.schema.json", () => {
  it("is what the zod schema generates (run `npm run build` after changing the schema)", () => {
    expect(committed).toBe(configJsonSchemaText());
  });

  it("validates config.json.example, which names it in $schema", () => {
    const validate = validator();
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    expect(example.$schema).toBe("./node_modules/second-look/config.schema.json");
  });

  it("rejects an unknown key, at the top and inside a block, as zod does", () => {
    const validate = validator();
    expect(validate({ ...example, correctiveRetrival: { enabled: true } })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({
      keyword: "additionalProperties",
      params: { additionalProperty: "correctiveRetrival" },
    });
    const knowledge = { ...(example.knowledge as object), colections: {} };
    expect(validate({ ...example, knowledge })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: "/knowledge" });
    expect(() => validateBotConfig({ ...example, correctiveRetrival: {} }, "config.json")).toThrow(
      /correctiveRetrival/,
    );
  });

  it("accepts $schema in config.json, which zod reads as a known key", () => {
    const config = validateBotConfig(
      {
        $schema: "./node_modules/second-look/config.schema.json",
        knowledge: { collections: { docs: { paths: ["*.md"] } } },
      },
      "config.json",
    );
    expect(config.knowledge.backend).toBe("embedded");
  });
});
