/**
 * The V1 run path written apart from its host: `base + "/run"`,
 * `fmt.Sprintf("%s/run?run_id=%s", ...)`, `"$API/run"`, `{{baseUrl}}/run`,
 * `status_path: /run`. Only meaningful in a file that also holds a legacy
 * base URL; the caller decides that.
 */
import { ENDPOINTS } from "../../../knowledge/migration.js";
import { queryHasRunId, RUN_PATH_TAIL } from "../../../core/run-path.js";

export interface RunPath {
  start: number;
  end: number;
  /** The text matched, placeholders included. */
  text: string;
  hasRunIdQuery: boolean;
  /** Written without a leading slash, as the argument of an HTTP call (Guzzle with a base_uri). */
  relative: boolean;
}

/** A value spliced into a string: `${x}`, `$x`, `$(x)`, `{{x}}`, `{x}`, `{}`, `%s`, `%(x)s`, `#{x}`, `<x>`. */
const PLACEHOLDER = String.raw`(?:\$\{[^{}\s]{0,80}\}|\$\(?[A-Za-z_]\w{0,80}\)?|\{\{[^{}\n]{0,80}\}\}|\{[^{}\s]{0,80}\}|%[sv]|%\(\w{1,80}\)s|#\{[^{}\n]{0,80}\}|<[A-Za-z_][\w-]{0,80}>)`;
const RUN = ENDPOINTS.createRun.v1.path.replace(/[/]/g, "\\/");
/**
 * `/run` (or `/api/run`) at the start of a token or right after placeholders,
 * ending the token or followed by a query. Placeholders are bounded so that
 * a long run of braces costs linear time.
 */
const RUN_PATH = new RegExp(
  String.raw`(?<=^|[\s"'\`=:(,\[+{>])(?:${PLACEHOLDER}){0,4}(?:\/api)?${RUN}${RUN_PATH_TAIL}(?=$|[\s"'\`<>),;\]}])`,
  "gm",
);
/** `->post('run', ...)`: a quoted `run` given to an HTTP client whose base_uri ends in `/api/` (Guzzle, Laravel). */
const RELATIVE_RUN =
  /(?:->|\.|::)(?:post|get|request)\s*\(\s*(?:["'](?:GET|POST)["']\s*,\s*)?(["'])(run(\?[^"'\s]*)?)\1/gi;

export function findRunPaths(text: string): RunPath[] {
  const out: RunPath[] = [];
  for (const match of text.matchAll(RUN_PATH)) {
    out.push(runPath(match.index!, match[0], match[1], false));
  }
  for (const match of text.matchAll(RELATIVE_RUN)) {
    const start = match.index! + match[0].length - 1 - match[2]!.length;
    out.push(runPath(start, match[2]!, match[3], true));
  }
  return out;
}

function runPath(start: number, text: string, query: string | undefined, relative: boolean): RunPath {
  return { start, end: start + text.length, text, hasRunIdQuery: queryHasRunId(query), relative };
}
