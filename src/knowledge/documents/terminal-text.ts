// Text saved from a terminal: a manual page kept with its formatting (`MAN_KEEP_FORMATTING`,
// `nroff` output), a command's coloured output piped to a file. Its bold and underline are
// overstrikes ("N\bN", "_\bO") and its colours, links and cursor moves escape sequences, all of
// which would cut words apart ("l\bls\bs" read as "l", "ls", "s"). What a terminal would show is
// kept: the last character of an overstrike, the text of a sequence.

const CONTROL = /[\x08\x1b\x9b]/;
/** A character struck over by the next one: the backspace and the character before it go. */
const OVERSTRUCK = /[^\x08\n]\x08/gu;
/** Control sequences (CSI: colours, cursor moves), ESC [ or the one-byte CSI. */
const CSI = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]/g;
/** Operating-system commands (OSC: a link's target, a window title), ended by BEL or ESC \. */
const OSC = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g;
/** Any other escape: ESC and the one character that completes it. */
const OTHER_ESCAPE = /\x1b[ -~]?/g;
/** Overstrikes nest ("a\b_\ba"): struck over at most this many times, as terminals render. */
const MAX_STRIKES = 4;

/** `text` as a terminal would show it: overstrikes resolved, escape sequences removed. */
export function withoutTerminalFormatting(text: string): string {
  if (!CONTROL.test(text)) return text;
  let out = text.replace(OSC, "").replace(CSI, "").replace(OTHER_ESCAPE, "");
  for (let pass = 0; pass < MAX_STRIKES && out.includes("\b"); pass++) out = out.replace(OVERSTRUCK, "");
  return out.replaceAll("\b", "");
}
