// docs/reference/vectorless-strategies.md §12.6 (span extraction) and quotes and offsets on non-ASCII
// text. Offsets are JavaScript string units: content.slice(start, end) is the quote.
import { describe, expect, it } from "vitest";
import {
  extractAnswerSpan,
  parseSpanReply,
  truncateChars,
} from "../../../src/strategies/answer/answer-span.js";
import { locateQuote } from "../../../src/strategies/answer/locate-quote.js";
import { ScriptedLlm } from "../../support/scripted-llm.js";

const reply = (quote: string, found = true) => JSON.stringify({ found, quote });

describe("answer spans", () => {
  it("VerbatimMatch: content.slice(start, end) is the quote, one call", async () => {
    const content = "Atlas is a sensor. Install it with vle ingest. Then query.";
    const llm = new ScriptedLlm([reply("Install it with vle ingest.")]);
    const { span, usage } = await extractAnswerSpan(llm, content, "how to install?");
    expect(span).not.toBeNull();
    expect(content.slice(span!.start, span!.end)).toBe(span!.text);
    expect(span!.start).toBeGreaterThan(0);
    expect(usage.llmCalls).toBe(1);
  });

  it("NotFound: found=false → no span, one call", async () => {
    const llm = new ScriptedLlm([reply("", false)]);
    const r = await extractAnswerSpan(llm, "text", "q");
    expect(r.span).toBeNull();
    expect(r.usage.llmCalls).toBe(1);
  });

  it("ParaphraseFallsBackToWhitespace: a whitespace-normalised quote resolves, text is verbatim", async () => {
    const content = "Intro.\nThe  quick\n   brown fox\tjumps.";
    const { span } = await extractAnswerSpan(
      new ScriptedLlm([reply("quick brown fox jumps.")]),
      content,
      "fox?",
    );
    expect(span!.start).toBeGreaterThanOrEqual(0);
    expect(span!.text).toBe("quick\n   brown fox\tjumps.");
    expect(content.slice(span!.start, span!.end)).toBe(span!.text);
  });

  it("QuoteNotInContent: the sentinel -1/-1 with the model's text kept", async () => {
    const { span } = await extractAnswerSpan(
      new ScriptedLlm([reply("something never written")]),
      "real text",
      "q",
    );
    expect(span).toEqual({ text: "something never written", start: -1, end: -1 });
  });

  it("EmptyInput: blank content or query → no span, no call", async () => {
    const llm = new ScriptedLlm([]);
    expect((await extractAnswerSpan(llm, "  ", "q")).span).toBeNull();
    expect((await extractAnswerSpan(llm, "text", " ")).span).toBeNull();
    expect(llm.calls).toBe(0);
  });

  it("an unreadable reply is no span (decided: fail soft); a transport error rejects", async () => {
    expect((await extractAnswerSpan(new ScriptedLlm(["no idea"]), "text", "q")).span).toBeNull();
    await expect(
      extractAnswerSpan(new ScriptedLlm([new Error("provider 500")]), "text", "q"),
    ).rejects.toThrow(/provider 500/);
  });

  it("ParseSpanResponse: code fence and leading prose", () => {
    expect(parseSpanReply('```json\n{"found":true,"quote":"hello"}\n```')).toEqual({
      found: true,
      quote: "hello",
    });
    expect(parseSpanReply('Here it is: {"found":true,"quote":"hello"}')).toEqual({
      found: true,
      quote: "hello",
    });
  });

  it("LocateQuote_Exact and LocateQuote_WhitespaceNormalised", () => {
    expect(locateQuote("alpha beta gamma", "beta")).toEqual({ start: 6, end: 10 });
    const content = "alpha\n\n  beta   gamma";
    const at = locateQuote(content, "beta gamma");
    expect(content.slice(at.start, at.end)).toBe("beta   gamma");
  });

  it("caps the quote at maxQuoteLen characters", async () => {
    const content = "word ".repeat(200).trim();
    const { span } = await extractAnswerSpan(new ScriptedLlm([reply(content)]), content, "q", {
      maxQuoteLen: 20,
    });
    expect(span!.end - span!.start).toBe(20);
    expect(span!.start).toBe(0);
  });
});

describe("non-ASCII quotes and offsets (acceptance 3)", () => {
  const norwegian =
    "Ferie: Ansatte får 25 dager ferie. Søknad sendes til lønnskontoret før 1. mars. Blåbærsyltetøy er på kjøkkenet.";

  it("Norwegian letters: exact offsets in string units", async () => {
    const quote = "Søknad sendes til lønnskontoret før 1. mars.";
    const { span } = await extractAnswerSpan(
      new ScriptedLlm([reply(quote)]),
      norwegian,
      "Hvor sender jeg søknaden?",
    );
    expect(span).toEqual({
      text: quote,
      start: norwegian.indexOf("Søknad"),
      end: norwegian.indexOf("Søknad") + quote.length,
    });
    expect(norwegian.slice(span!.start, span!.end)).toBe(quote);
  });

  it("emoji (surrogate pairs) before and inside the quote", async () => {
    const content = "🚀🚀 Launch day 🎉: the rocket 🚀 leaves at 09:00 from pad 39A. Bring 🧃.";
    const quote = "the rocket 🚀 leaves at 09:00";
    const { span } = await extractAnswerSpan(new ScriptedLlm([reply(quote)]), content, "when?");
    expect(span!.start).toBe(content.indexOf("the rocket"));
    expect(span!.end - span!.start).toBe(quote.length);
    expect(content.slice(span!.start, span!.end)).toBe(quote);
  });

  it("combining marks: a precomposed quote finds decomposed text, and the verbatim slice is returned", async () => {
    const decomposed = "Møtet er i Sa\u0301\u0308 huset. Ta med ka\u030Aper og ha\u030Ar.".normalize("NFD");
    const quote = "Ta med kåper og hår.".normalize("NFC");
    expect(decomposed.includes(quote)).toBe(false);
    const { span } = await extractAnswerSpan(new ScriptedLlm([reply(quote)]), decomposed, "hva tar jeg med?");
    expect(span!.start).toBe(decomposed.indexOf("Ta med"));
    expect(span!.end).toBe(decomposed.length);
    expect(span!.text).toBe(decomposed.slice(span!.start, span!.end));
    expect(span!.text.normalize("NFC")).toBe(quote);
  });

  it("a decomposed quote finds precomposed text too, and whitespace + composition differences together", () => {
    const content = "Skal  vi\nmøtes på\tbrygga?";
    const quote = "møtes på brygga".normalize("NFD");
    const at = locateQuote(content, `vi ${quote}`);
    expect(content.slice(at.start, at.end)).toBe("vi\nmøtes på\tbrygga");
  });

  it("never splits a surrogate pair or leaves a dangling half when truncating", () => {
    expect(truncateChars("ab🚀cd", 3)).toBe("ab🚀");
    expect(truncateChars("ab🚀cd", 2)).toBe("ab");
    expect(truncateChars("æøå", 10)).toBe("æøå");
  });
});
