import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { documentFormatFor } from "../../../src/knowledge/documents/document-format.js";
import { documentIdFor } from "../../../src/knowledge/documents/document-id.js";

describe("documentIdFor", () => {
  const root = join("/srv", "bots", "handbook", "docs");

  it("is the path relative to the root with forward slashes", () => {
    expect(documentIdFor(root, join(root, "leave", "vacation.md"))).toBe("leave/vacation.md");
    expect(documentIdFor(root, join(root, "..hidden.md"))).toBe("..hidden.md");
  });

  it("refuses paths outside the root", () => {
    expect(documentIdFor(root, join(root, "..", "secret.md"))).toBeUndefined();
    expect(documentIdFor(root, root)).toBeUndefined();
  });
});

describe("documentFormatFor", () => {
  it("dispatches by extension, case-insensitively", () => {
    expect(documentFormatFor("a/B.MD")).toBe("markdown");
    expect(documentFormatFor("x.markdown")).toBe("markdown");
    expect(documentFormatFor("x.mdx")).toBe("mdx");
    expect(documentFormatFor("x.text")).toBe("text");
    expect(documentFormatFor("x.htm")).toBe("html");
    expect(documentFormatFor("x.pdf")).toBe("pdf");
    expect(documentFormatFor("Makefile")).toBeUndefined();
  });
});
