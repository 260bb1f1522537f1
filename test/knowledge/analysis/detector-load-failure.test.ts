// A detector that cannot load (a broken install, an import the runtime refuses) detects nothing,
// so searches go on, and says so once on the log rather than failing silently: whether the
// build's copy of eld (vendor/eld) is missing and the package fails, or the copy itself is broken.
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { LogEntry } from "../../../src/telemetry/logger.js";

const vendored = vi.hoisted(() => ({ failure: undefined as Error | undefined }));
const packageLoads = vi.hoisted(() => ({ count: 0 }));

vi.mock("node:module", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:module")>();
  const createRequire = (from: string | URL) => {
    const real = actual.createRequire(from);
    return Object.assign((id: string) => {
      if (id.endsWith("eld-small.cjs") && vendored.failure) throw vendored.failure;
      return real(id);
    }, real);
  };
  return { ...actual, createRequire, default: { ...actual, createRequire } };
});

vi.mock("eld/small", () => {
  packageLoads.count++;
  throw new Error("eld could not be loaded");
});

function notFound(): Error {
  return Object.assign(new Error("Cannot find module vendor/eld/eld-small.cjs"), {
    code: "MODULE_NOT_FOUND",
  });
}

describe("a language detector that fails to load", () => {
  // Each case loads the detector and the logger afresh (the detector loads once per module).
  beforeEach(() => {
    vi.resetModules();
    packageLoads.count = 0;
  });

  async function loadsNothing(): Promise<void> {
    const seen: LogEntry[] = [];
    const { setLogFunction } = await import("../../../src/telemetry/logger.js");
    setLogFunction((entry) => seen.push(entry));
    const { languageDetector } = await import("../../../src/knowledge/analysis/detect.js");
    const detect = await languageDetector();
    expect(detect("Wie speichere ich eine Tabelle als PDF-Datei?")).toBeUndefined();
    await languageDetector();
    const warnings = seen.filter((entry) =>
      String(entry.msg).includes("language detector (eld) failed to load"),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.level).toBe(40);
  }

  it("detects nothing and warns once when there is no built copy and the package fails", async () => {
    vendored.failure = notFound();
    await loadsNothing();
    expect(packageLoads.count).toBe(1);
  });

  it("detects nothing and warns once when the built copy is broken (the package is not tried)", async () => {
    vendored.failure = new SyntaxError("Unexpected end of input");
    await loadsNothing();
    expect(packageLoads.count).toBe(0);
  });
});
