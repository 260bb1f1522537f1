// Packages only some users need (Slack, Teams, PostgreSQL, the OTLP exporter, the Copilot SDK,
// the OpenAI and Anthropic clients) are peer dependencies of the package (package.json
// `peerDependencies`): a library user who wants the corrective hook does not install them. The
// code that needs one imports it on first use through `loadOptional`, which turns "Cannot find
// package" into one line naming what to install.
import { type ErrorLayer, SecondLookError } from "./errors.js";

export interface OptionalPackage {
  /** The npm names to install, e.g. ["pg", "pg-copy-streams"]. */
  packages: readonly string[];
  /** What needs them, for the message: "the postgres backend", "serve on Slack". */
  neededFor: string;
  /** The layer the error is reported from. */
  layer: ErrorLayer;
}

/**
 * An optional package is not installed. Its layer is the one that needed the package; its code is
 * "missing-package" in every layer that loads one (telemetry, llm, knowledge, connectors, hosts).
 */
export class MissingPackageError extends SecondLookError<"missing-package"> {
  constructor(layer: ErrorLayer, message: string, options?: { cause?: unknown }) {
    super(layer, "missing-package", message, options);
    this.name = "MissingPackageError";
  }
}

/** The one line said when an optional package is missing. */
export function missingPackageMessage(need: OptionalPackage, missing: string): string {
  return `${need.neededFor} needs the package ${missing}, which is not installed: run \`npm i ${need.packages.join(" ")}\``;
}

/** The optional package a module-not-found error names, if it is one of `packages`. */
export function missingPackageIn(error: unknown, packages: readonly string[]): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return undefined;
  // Node names the package in quotes: "Cannot find package 'pg' imported from …" (ESM) or
  // "Cannot find module 'pg'" (require); a deep import names "'pg/lib/…'".
  return packages.find((name) => error.message.includes(`'${name}'`) || error.message.includes(`'${name}/`));
}

/**
 * Runs `load` (a dynamic import of the module that uses the packages) once per call site's
 * cache; a missing package becomes a SecondLookError with code "missing-package".
 */
export async function loadOptional<T>(need: OptionalPackage, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing = missingPackageIn(error, need.packages);
    if (missing === undefined) throw error;
    throw new MissingPackageError(need.layer, missingPackageMessage(need, missing), {
      cause: error,
    });
  }
}
