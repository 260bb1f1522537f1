import type * as z from "zod";

// Reads the key structure out of a zod schema so "unknown key" errors can list and suggest valid
// keys without a hand-kept copy of the schema that would drift from it.

/** The slice of zod's internal definition this walker relies on (stable across zod 4.x). */
interface SchemaDef {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  innerType?: z.core.$ZodType;
  valueType?: z.core.$ZodType;
  element?: z.core.$ZodType;
  in?: z.core.$ZodType;
}

/** Placeholder for a user-chosen record key (a collection name) in a key path. */
export const ANY_KEY = "<name>";

function defOf(schema: z.core.$ZodType): SchemaDef {
  return schema._zod.def as unknown as SchemaDef;
}

/** Strip wrappers (optional, default, …) that do not change the shape of the value. */
function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    const next = def.innerType ?? (def.type === "pipe" ? def.in : undefined);
    if (next === undefined) return current;
    current = next;
  }
}

function child(schema: z.core.$ZodType, segment: PropertyKey): z.core.$ZodType | undefined {
  const def = defOf(unwrap(schema));
  if (def.type === "object") return def.shape?.[String(segment)];
  if (def.type === "record") return def.valueType;
  if (def.type === "array") return def.element;
  return undefined;
}

/** The keys an object accepts at `path` (a path into the data), or undefined if it is no object. */
export function keysAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] | undefined {
  let current: z.core.$ZodType | undefined = schema;
  for (const segment of path) {
    if (current === undefined) return undefined;
    current = child(current, segment);
  }
  if (current === undefined) return undefined;
  const def = defOf(unwrap(current));
  return def.type === "object" ? Object.keys(def.shape ?? {}) : undefined;
}

/** Every key path the schema accepts, record keys shown as ANY_KEY, in declaration order. */
export function allKeyPaths(schema: z.core.$ZodType): string[][] {
  const out: string[][] = [];
  const visit = (node: z.core.$ZodType, prefix: string[]): void => {
    const def = defOf(unwrap(node));
    if (def.type === "object") {
      for (const [key, value] of Object.entries(def.shape ?? {})) {
        out.push([...prefix, key]);
        visit(value, [...prefix, key]);
      }
    } else if (def.type === "record" && def.valueType !== undefined) {
      visit(def.valueType, [...prefix, ANY_KEY]);
    }
  };
  visit(schema, []);
  return out;
}
