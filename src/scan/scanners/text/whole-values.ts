/**
 * Is a URL a whole value, or a word in a sentence? A bare host such as
 * `https://www.comfydeploy.com` is the API base only when it is configured
 * (the V1 SDK appends /api to it): `KEY=https://…`, `key: "https://…" # note`,
 * `KEY = "…"`, a list item, or a whole string literal in code.
 */

export type ValueShape =
  /** After `=`, `:` or `=>`: a setting or an assignment. */
  | "setting"
  /** A string literal holding nothing else. */
  | "literal"
  /** Alone on its line, or an item of a list. */
  | "item";

const OPENERS = new Set(['"', "'", "`"]);

/** How much of the line around a URL is read: enough for a key and a comment, bounded for minified lines. */
const REACH = 200;

export function valueShapeAt(text: string, start: number, end: number): ValueShape | undefined {
  let lineStart = start;
  while (lineStart > 0 && start - lineStart < REACH && text[lineStart - 1] !== "\n") lineStart--;
  // `https\://host` in .properties: the mention starts after the escaped scheme.
  let before = text.slice(lineStart, start).replace(/[a-z][a-z0-9+.-]{0,30}\\:$/i, "");
  const quote = OPENERS.has(before.slice(-1)) ? before.slice(-1) : "";
  if (quote) before = before.slice(0, -1);
  let i = end;
  if (text[i] === "/") i++;
  if (quote) {
    if (text[i] !== quote) return undefined;
    i++;
  }
  const after = text
    .slice(i, i + REACH)
    .split("\n")[0]!
    .replace(/\r$/, "");
  if (!/^\s*(?:$|#|;|\/\/|,|\}|\]|\))/.test(after)) return undefined;
  const lead = before.trimEnd();
  // <a href="https://host">: a link to the vendor's site, not a configured base.
  if (/\b(?:href|src|srcset|action|cite|poster|xlink:href)\s*=$/i.test(lead)) return undefined;
  if (/(?:=>?|:)$/.test(lead)) return "setting";
  if (lead === "" || /^\s*-$/.test(lead) || /[[{,(]$/.test(lead)) return quote && lead !== "" ? "literal" : "item";
  return quote ? "literal" : undefined;
}
