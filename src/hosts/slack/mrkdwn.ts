// Models answer in Markdown; Slack renders its own "mrkdwn". The answer is also untrusted text
// (it paraphrases documents), so `&`, `<` and `>` are always escaped: a document cannot make the
// bot post `<!channel>`, a user mention or a disguised link. Links are rebuilt from Markdown
// only when their target is an http(s) URL.
import { safeHttpUrl } from "../../knowledge-tool/safe-url.js";
import type { CitedDocument } from "../cited-documents.js";

/** Slack's three control characters, escaped as its docs require. */
export function escapeSlackText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** `<url|label>`; the label cannot close the link early. */
export function slackLink(url: string, label: string): string {
  const safeLabel = escapeSlackText(label.replace(/[|\s]+/g, " ").trim()) || escapeSlackText(url);
  // `|` and `>` would end the URL part; Slack accepts them percent-encoded.
  const safeTarget = escapeSlackText(url.replace(/\|/g, "%7C").replace(/>/g, "%3E"));
  return `<${safeTarget}|${safeLabel}>`;
}

const MARKDOWN_LINK = /\[([^\]\n]{1,500})\]\(([^)\s]{1,2000})\)/g;
const BOLD_MARK = "\u0001";
const LINK_MARK = "\u0002";

/** Prose (outside code): links, emphasis, headings, bullets. */
function convertProse(prose: string): string {
  const links: string[] = [];
  const withMarks = prose
    .replace(/[\u0001\u0002]/g, "")
    .replace(MARKDOWN_LINK, (whole, label: string, target: string) => {
      const url = safeHttpUrl(target);
      if (!url) return whole;
      links.push(slackLink(url, label));
      return `${LINK_MARK}${links.length - 1}${LINK_MARK}`;
    });
  return escapeSlackText(withMarks)
    .replace(/^#{1,6}[ \t]+(.+?)[ \t]*#*$/gm, `${BOLD_MARK}$1${BOLD_MARK}`)
    .replace(/\*\*(\S(?:.*?\S)?)\*\*/g, `${BOLD_MARK}$1${BOLD_MARK}`)
    .replace(/__(\S(?:.*?\S)?)__/g, `${BOLD_MARK}$1${BOLD_MARK}`)
    .replace(/(^|[^*\w])\*(\S(?:[^*\n]*?\S)?)\*(?![*\w])/g, "$1_$2_")
    .replace(/~~(\S(?:.*?\S)?)~~/g, "~$1~")
    .replace(/^([ \t]*)[-*+][ \t]+/gm, "$1• ")
    .replace(new RegExp(BOLD_MARK, "g"), "*")
    .replace(new RegExp(`${LINK_MARK}(\\d+)${LINK_MARK}`, "g"), (_m, i: string) => links[Number(i)] ?? "");
}

/** Markdown → Slack mrkdwn; code blocks and inline code keep their text (escaped only). */
export function toSlackMrkdwn(markdown: string): string {
  const out: string[] = [];
  // Fenced blocks first, then inline code spans within the prose between them.
  const fenced = markdown.split(/(```[\s\S]*?(?:```|$))/);
  for (const part of fenced) {
    if (part.startsWith("```")) {
      // Slack ignores a language tag and would print it as code; drop it.
      out.push(escapeSlackText(part.replace(/^```[^\n`]*\n/, "```\n")));
      continue;
    }
    const inline = part.split(/(`[^`\n]+`)/);
    out.push(
      inline
        .map((piece) =>
          piece.startsWith("`") && piece.length > 1 ? escapeSlackText(piece) : convertProse(piece),
        )
        .join(""),
    );
  }
  return out.join("");
}

/** The sources line under an answer: links where a document has a URL, else its title. */
export function slackSources(documents: readonly CitedDocument[], named: boolean): string {
  if (documents.length === 0) return "";
  const items = documents.map((d) => (d.url ? slackLink(d.url, d.title) : `_${escapeSlackText(d.title)}_`));
  return `${named ? "*Sources:*" : "*Related documents:*"} ${items.join(" · ")}`;
}
