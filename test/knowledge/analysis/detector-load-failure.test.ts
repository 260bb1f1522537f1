// A detector that cannot load (a broken install, an import the runtime refuses) detects nothing,
// so searches go on, and says so once on the log rather than failing silently.
import { afterEach, describe, expect, it, vi } from "vitest";
import { type LogEntry, logger, setLogFunction, setLogger } from "../../../src/telemetry/logger.js";

vi.mock("eld/small", () => {
  throw new Error("eld could not be loaded");
});

describe("a language detector that fails to load", () => {
  const before = logger();
  afterEach(() => setLogger(before));

  it("detects nothing and warns once", async () => {
    const seen: LogEntry[] = [];
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
  });
});
