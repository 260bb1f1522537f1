import type { AnalyzerDefinition } from "./text-analyzer.js";

/**
 * The analyzers a program registers (`registerAnalyzer`, exported by the package's entry): kept
 * apart from the registry of languages so that `import "second-look"` does not load every
 * language's stopword lists to offer it. The registry (registry.ts) looks a name up here first.
 */

/** What `knowledge.collections.<name>.language` takes besides a language tag or analyzer name. */
const AUTO = "auto";
const NAME = /^[a-z0-9][a-z0-9_-]*$/;

const own = new Map<string, AnalyzerDefinition>();
let generation = 0;

/**
 * Registers an analyzer under `name` (a definition composed with `TextAnalyzer.builder`), so a
 * collection whose `language` is `name` is analysed with it. A supported language's tag replaces
 * that language's analyzer; any other name (letters, digits, "-", "_"; not "auto") adds one.
 * Register before opening a bot: an index records its analyzer's id and is rebuilt when a
 * collection's analyzer id changes, so give a changed definition a new id. Parser threads get the
 * program's registrations with every file they read.
 */
export function registerAnalyzer(name: string, definition: AnalyzerDefinition): void {
  const key = name.trim().toLowerCase();
  if (!NAME.test(key) || key === AUTO) {
    throw new RangeError(
      `an analyzer's name is letters, digits, "-" and "_", and not "${AUTO}": got "${name}"`,
    );
  }
  if (!definition.id?.trim()) throw new RangeError(`analyzer "${name}" has no id`);
  const known = own.get(key);
  if (known && JSON.stringify(known) === JSON.stringify(definition)) return;
  own.set(key, definition);
  generation++;
}

/** The definition a program registered under `name`, if any. */
export function ownAnalyzer(name: string): AnalyzerDefinition | undefined {
  return own.get(name.trim().toLowerCase());
}

/** Changes with every registration: analyzers built before it are built anew. */
export function ownAnalyzersGeneration(): number {
  return generation;
}

/** The program's registrations by name, for a parser thread to register too; undefined when none. */
export function ownAnalyzerDefinitions(): Record<string, AnalyzerDefinition> | undefined {
  return own.size === 0 ? undefined : Object.fromEntries(own);
}
