/** Docs sentences that configure the API base rather than link to the vendor. */

/** Words of a sentence telling the reader to configure a base: "leave it blank to use", "falls back to", "set it to". */
const CONFIGURING_WORDS =
  /\b(?:leave|left|unset|blank|empty|defaults?|fall(?:s|ing)?\s+back|fallback|set\s+(?:it|this|the\s+\w+)\s+to|point\s+\S+\s+at|override|base\s*url|api\s*base)\b/i;

/**
 * A bare host in a docs sentence that configures it ("Optional: leave it
 * blank to use https://…"): users copy these, so it is the API base too.
 * The sentence may span lines; links to the vendor's site stay quiet.
 */
export function configuresInProse(text: string, start: number, end: number): boolean {
  const before = text.slice(Math.max(0, start - 300), start);
  const after = text.slice(end, end + 300);
  const from = Math.max(before.search(/(?:[.!?|]\s|\n\s*\n)(?![\s\S]*(?:[.!?|]\s|\n\s*\n))/) + 1, 0);
  const sentenceEnd = after.search(/[.!?|](?:\s|$)|\n\s*\n/);
  const sentence = `${before.slice(from)} ${after.slice(0, sentenceEnd < 0 ? after.length : sentenceEnd)}`;
  return CONFIGURING_WORDS.test(sentence);
}
