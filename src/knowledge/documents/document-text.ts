import type { DocSection } from "../../types.js";

/**
 * The whole document as plain text: each section's heading and content in reading order,
 * blank-line separated. Built from whole sections (before oversized ones are split) so no
 * heading is repeated.
 */
export function documentText(sections: readonly DocSection[]): string {
  const blocks: string[] = [];
  for (const section of sections) {
    if (section.heading) blocks.push(section.heading);
    if (section.content !== "") blocks.push(section.content);
  }
  return blocks.join("\n\n");
}
