// Every relative link in README.md and docs/ points at a file that exists, and an anchor at a
// heading that exists in it, so moving a page or renaming a heading cannot leave a dead link.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Markdown outside fenced code blocks and inline code, where links are links. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(match[1]!.replace(/`/g, ""));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Why each relative link of `page` (a path inside `root`) is dead; empty when none is. */
function deadLinks(root: string, page: string, markdown: string): string[] {
  const dead: string[] = [];
  for (const match of prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [path, anchor] = target.split("#", 2) as [string, string | undefined];
    const file = path === "" ? join(root, page) : resolve(dirname(join(root, page)), decodeURI(path));
    if (!existsSync(file)) {
      dead.push(`${page}: ${target} (no such file)`);
      continue;
    }
    if (anchor === undefined || statSync(file).isDirectory() || !file.endsWith(".md")) continue;
    if (!anchorsOf(readFileSync(file, "utf8")).has(anchor.toLowerCase())) {
      dead.push(`${page}: ${target} (no heading #${anchor} in ${relative(root, file)})`);
    }
  }
  return dead;
}

function markdownPages(folder: string): string[] {
  return readdirSync(join(repo, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownPages(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

describe("links in README.md and docs/", () => {
  it("every relative link reaches a file, and every anchor a heading", () => {
    const pages = ["README.md", ...markdownPages("docs")];
    expect(pages.length).toBeGreaterThan(10);
    const dead = pages.flatMap((page) => deadLinks(repo, page, readFileSync(join(repo, page), "utf8")));
    expect(dead).toEqual([]);
  });

  it("the README stays a front door: at most 250 lines, none over 160 characters", () => {
    const lines = readFileSync(join(repo, "README.md"), "utf8").split("\n");
    expect(lines.length).toBeLessThanOrEqual(250);
    expect(lines.filter((line) => line.length > 160)).toEqual([]);
  });

  it("reports a missing file, a missing heading, and passes a link in code or to the web", () => {
    const markdown = [
      "# Set up",
      "## Your own documents",
      "[ok](#your-own-documents) [ok](docs/design.md#5-corrective-retrieval-corrective) [ok](docs/design.md) [web](https://example.com/x)",
      "[gone](docs/missing.md) [bad](#nowhere) `[code](docs/missing.md)`",
      "```",
      "[fenced](docs/missing.md)",
      "```",
    ].join("\n");
    const dead = deadLinks(repo, "README.md", markdown).map((line) => line.replace(/ \(.*$/, ""));
    expect(dead).toEqual(["README.md: docs/missing.md", "README.md: #nowhere"]);
  });
});
