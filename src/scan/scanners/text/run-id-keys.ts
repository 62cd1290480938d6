/**
 * Where a tree-language request's `run_id` query is written: the run_id keys
 * near the request (before it, or below it in the same block), so a status
 * request is reported on its run_id line, as the text rules do.
 */
import type { V1Endpoint } from "../../../core/urls.js";
import type { RunExpression } from "../../../lang/tree/run-expressions.js";

/**
 * A GET, or a request of unknown method, whose run_id goes into the query
 * apart from the URL: reported where the run_id is when that is on another
 * line (`query.Add("run_id", id)` before it, `queryParameters: {'run_id': id}`
 * after it), as the text rules do; in the same builder chain before the URL
 * (`SetQueryParam("run_id", id).Get("/run")`), at the URL.
 */
export function refine(
  endpoint: V1Endpoint,
  at: { start: number; end: number },
  expression: RunExpression,
  text: string,
): { endpoint: V1Endpoint; start: number; end: number } {
  if (endpoint === "create-run" || /[?&]run_id=/.test(expression.value)) return { endpoint, ...at };
  const statement = expression.statement;
  if (runIdKeysIn(text, statement.startIndex, at.start).length > 0) return { endpoint: "get-run", ...at };
  const urlLineEnd = lineEndAt(text, at.start);
  // A generated request builds its query between the path and the request's constructor, however many lines that is.
  const to = lineEndAt(text, Math.max(statement.endIndex, at.end, expression.resolved?.requestEnd ?? 0));
  // Up to ten lines on, inside the block the request is in.
  const blockEnd = statement.parent?.endIndex ?? text.length;
  const after = runIdKeysIn(text, at.start, Math.min(blockEnd, nthLineEnd(text, at.end, 10, to)))[0];
  if (after) return after.start > urlLineEnd ? { endpoint: "get-run", ...after } : { endpoint: "get-run", ...at };
  const windowStart = Math.max(statement.parent?.startIndex ?? 0, nthLineStart(text, statement.startIndex, 3));
  const before = runIdKeysIn(text, windowStart, statement.startIndex).at(-1);
  if (before) return { endpoint: "get-run", ...before };
  return { endpoint, ...at };
}

/**
 * The run_id keys written between two offsets that may name a query
 * parameter; not reads of a response (`["run_id"]`, `.fetch("run_id")`,
 * `json('run_id')`, `created.run_id`) nor a local variable of that name
 * (`run_id = client.queue(…)`, PHP's `$run_id`).
 */
function runIdKeysIn(text: string, from: number, to: number): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const match of text.slice(from, to).matchAll(RUN_ID)) {
    const start = from + match.index!;
    const end = start + match[0].length;
    const before = text.slice(Math.max(0, start - 40), start);
    const after = text.slice(end, end + 8);
    const quoted = /["']$/.test(before) && /^["']/.test(after);
    if (
      quoted &&
      /(?:\[\s*|\b(?:fetch|get|json|getString|optString|dig|value|read)\s*\(\s*)["']$/.test(before) &&
      /^["']\s*[\])]/.test(after)
    )
      continue;
    if (!quoted && /(?:\.|->|\?\.)$/.test(before) && !/[A-Z]/.test(match[0])) continue;
    // `run_id = id` inside `new { … }` (a C# anonymous or initialized object: Flurl's SetQueryParams) names a key.
    if (
      !quoted &&
      /(?:^|\n)\s*[$@]?$/.test(before) &&
      /^\s*=(?!=)/.test(after) &&
      !INITIALIZER_OPEN.test(text.slice(Math.max(0, start - 200), start))
    )
      continue;
    // PHP's `$run_id` is a variable the key's value comes from, not the key.
    if (!quoted && before.endsWith("$")) continue;
    out.push({ start, end });
  }
  return out;
}

function lineEndAt(text: string, offset: number): number {
  const end = text.indexOf("\n", offset);
  return end < 0 ? text.length : end;
}

/** The start of the `count`-th line before the one holding `offset`. */
function nthLineStart(text: string, offset: number, count: number): number {
  let start = text.lastIndexOf("\n", offset - 1);
  for (let i = 0; i < count && start > 0; i++) start = text.lastIndexOf("\n", start - 1);
  return start + 1;
}

/** An object initializer still open: `new {`, `new Query {`, `new Dictionary<string, string>() {`. */
const INITIALIZER_OPEN = /\bnew\s*(?:[\w.<>, ]+?\s*)?(?:\(\s*\)\s*)?\{[^{};]*$/;

/** The query key, or a constant named after it (`RUN_ID_PARAM`); not a `runId` parameter. */
const RUN_ID = /run_id|RUN_ID/g;

/** The end of the `count`-th line after `from`, but not before `atLeast`. */
function nthLineEnd(text: string, from: number, count: number, atLeast: number): number {
  let end = from;
  for (let i = 0; i < count; i++) {
    const next = text.indexOf("\n", end + 1);
    if (next < 0) return text.length;
    end = next;
  }
  return Math.max(end, atLeast);
}
