/**
 * In-source suppressions: `comfydeploy-migrate-ignore <ruleId> [until YYYY-MM-DD] -- <reason>`
 * in a comment, in any comment syntax. A comment after code covers its own
 * line; a comment alone on its line covers the next line (stacked ignore
 * comments all cover the first line after them). Several rule ids may be
 * given, separated by commas. After `until` the finding comes back, with a note.
 */
import { type Finding, makeFinding, type SuppressionState } from "./finding.js";
import { excerptOf } from "./redact.js";
import { RULE_IDS } from "../rules/catalog.js";

export type { SuppressionState };

export const SUPPRESSION_KEYWORD = "comfydeploy-migrate-ignore";

const PATTERN = new RegExp(
  `${SUPPRESSION_KEYWORD}\\s+([a-z0-9*-]+(?:\\s*,\\s*[a-z0-9*-]+)*)(?:\\s+until\\s+(\\d{4}-\\d{2}-\\d{2}))?(?:\\s+--\\s*(.*?))?\\s*(?:\\*\\/|-->|$)`,
);

// A line that only closes a block comment (`*/`, `-->`) does not end a comment that stands alone.
const COMMENT_CLOSER_ONLY = /^\s*(?:\*+\/\}?|-->|#\})\s*$/;

/** What may stand before the keyword on a line that holds only the comment: a comment opener. */
const COMMENT_ONLY_PREFIX = /^\s*(?:\/\/+|\/\*+|\*|#+|<!--|--|;+|'|%+|rem\s|::|\{\/\*|\{#|\{\{!?-*)?\s*$/i;

export interface Suppression {
  /** The line the comment is on. */
  line: number;
  /** The line it covers: its own line after code, the next one when the comment stands alone. */
  covers: number;
  rules: string[];
  until?: string;
  reason?: string;
  /** 1-based column of the keyword, and UTF-16 offsets of the directive [start, end) in the text. */
  column: number;
  start: number;
  end: number;
  /** The comment's line as written. */
  text: string;
}

export function parseSuppressions(text: string): Suppression[] {
  const out: Suppression[] = [];
  const lines = text.split("\n");
  let offset = 0;
  const pending: Suppression[] = [];
  lines.forEach((rawLine, index) => {
    const lineText = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
    const lineStart = offset;
    offset += rawLine.length + 1;
    const match = lineText.includes(SUPPRESSION_KEYWORD) ? PATTERN.exec(lineText) : null;
    if (!match) {
      if (COMMENT_CLOSER_ONLY.test(lineText)) return;
      // Comments alone on their lines cover the first line after them.
      for (const s of pending.splice(0)) s.covers = index + 1;
      return;
    }
    const standalone = COMMENT_ONLY_PREFIX.test(lineText.slice(0, match.index));
    const suppression: Suppression = {
      line: index + 1,
      covers: index + 1,
      rules: match[1]!.split(/\s*,\s*/),
      ...(match[2] ? { until: match[2] } : {}),
      ...(match[3] ? { reason: match[3].trim() } : {}),
      column: match.index + 1,
      start: lineStart + match.index,
      end: lineStart + lineText.length,
      text: lineText,
    };
    if (standalone) pending.push(suppression);
    else for (const s of pending.splice(0)) s.covers = index + 1;
    out.push(suppression);
  });
  // Comments at the end of the file cover the line after them, which holds nothing.
  for (const s of pending) s.covers = s.line + 1;
  return out;
}

function covers(s: Suppression, finding: Finding): boolean {
  return s.covers === finding.line && (s.rules.includes(finding.ruleId) || s.rules.includes("*"));
}

/**
 * Attaches suppression state to the findings of one file and returns the
 * suppressions that covered none of them (expired ones that matched count as used).
 */
export function applySuppressions(
  findings: Finding[],
  suppressions: readonly Suppression[],
  today: string,
): Suppression[] {
  const used = new Set<Suppression>();
  for (const finding of findings) {
    const match = suppressions.find((s) => covers(s, finding));
    if (!match) continue;
    used.add(match);
    const expired = match.until !== undefined && match.until < today;
    finding.suppression = {
      reason: match.reason ?? "no reason given",
      line: match.line,
      ...(match.until ? { until: match.until } : {}),
      expired,
    };
    if (expired) finding.message += ` (suppression expired on ${match.until})`;
  }
  return suppressions.filter((s) => !used.has(s));
}

/** Rule ids named in a suppression that the catalog does not know, for a warning. */
export function unknownRules(suppression: Suppression): string[] {
  return suppression.rules.filter((r) => r !== "*" && !(RULE_IDS as readonly string[]).includes(r));
}

/**
 * Whether an unused suppression is worth reporting: in prose (Markdown, HTML,
 * text) only an HTML comment is a directive; the rest are examples of one.
 */
export function isDirective(suppression: Suppression, prose: boolean): boolean {
  return !prose || suppression.text.includes("<!--");
}

/** An ignore comment that covered nothing, as an `unused-ignore` finding at the directive. */
export function unusedIgnoreFinding(file: string, s: Suppression): Finding {
  const where = s.covers === s.line ? "its own line" : `line ${s.covers}`;
  const finding = makeFinding(file, {
    ruleId: "unused-ignore",
    message: `${SUPPRESSION_KEYWORD} ${s.rules.join(",")} covers no finding on ${where}: delete it, or name the rule and place it where the finding is`,
    location: { line: s.line, column: s.column, endLine: s.line, endColumn: s.column + (s.end - s.start) },
    span: { start: s.start, end: s.end },
  });
  finding.excerpt = excerptOf(s.text);
  return finding;
}

export function isActivelySuppressed(finding: Finding): boolean {
  return finding.suppression !== undefined && !finding.suppression.expired;
}
