/**
 * The V1 run path and its `run_id` query, defined once for the scanner (which
 * finds them in any text) and the transforms (which rewrite them): `run` as
 * the last path segment, an optional trailing slash, then a query, a fragment
 * or the end; `run_id` counts only in the query, never in the fragment.
 */
import { ENDPOINTS } from "../knowledge/migration.js";

export const RUN_ID_KEY: string = ENDPOINTS.getRun.v1.query;

/**
 * How many lines around a V1 URL still belong to its request when no
 * statement or request object bounds it: the scanner reads the body and a
 * later run_id query there, and the transform looks for the V1-only fields it
 * must mark in the same lines.
 */
export const BODY_LINES = 10;

/** `run` ending a URL's path; group 1 is `run`, group 2 the trailing slash. */
const RUN_SEGMENT = /(?:^|\/)(run)(\/?)(?=[?#]|$)/;

/**
 * The same end of a run path inside free text, for the scanner's pattern:
 * the optional trailing slash, then (group) a query and fragment up to the
 * end of the token.
 */
export const RUN_PATH_TAIL = String.raw`\/?([?#][^\s"'\`<>)\]}]*)?`;

export interface RunSegment {
  /** Offset of `run`. */
  start: number;
  /** Offset just after `run`. */
  end: number;
  /** A `/` follows `run` and ends the path. */
  trailingSlash: boolean;
  /** Offset of the `?` starting the query, if any. */
  queryStart?: number;
}

/** Where the V1 run path ends in one URL text. */
export function findRunSegment(url: string): RunSegment | undefined {
  const match = RUN_SEGMENT.exec(url);
  if (!match) return undefined;
  const start = match.index + match[0].length - match[2]!.length - 3;
  const end = start + 3;
  const after = end + match[2]!.length;
  return { start, end, trailingSlash: match[2] === "/", ...(url[after] === "?" ? { queryStart: after } : {}) };
}

/** A `run_id` parameter in a query, with what surrounds it. */
export interface RunIdParam {
  /** Offset of the `?`. */
  queryStart: number;
  valueStart: number;
  valueEnd: number;
  /** The parameters written before run_id, `&`-joined (empty when run_id comes first). */
  before: string;
  /** The parameters after run_id, with their leading `&` (or ""). */
  after: string;
}

/** The run_id parameter of the query starting at `queryStart` (a `?`). */
export function findRunIdParam(url: string, queryStart: number): RunIdParam | undefined {
  // A fragment starts at `#`, except Ruby's `#{...}` interpolation.
  const hash = url.slice(queryStart).search(/#(?!\{)/);
  const queryEnd = hash < 0 ? url.length : queryStart + hash;
  const params: Array<{ start: number; end: number }> = [];
  let from = queryStart + 1;
  for (;;) {
    const amp = url.indexOf("&", from);
    const end = amp < 0 || amp > queryEnd ? queryEnd : amp;
    params.push({ start: from, end });
    if (end === queryEnd) break;
    from = end + 1;
  }
  const index = params.findIndex((p) => url.startsWith(`${RUN_ID_KEY}=`, p.start));
  if (index < 0) return undefined;
  const param = params[index]!;
  const before = index === 0 ? "" : url.slice(queryStart + 1, params[index - 1]!.end);
  return {
    queryStart,
    valueStart: param.start + RUN_ID_KEY.length + 1,
    valueEnd: param.end,
    before,
    after: url.slice(param.end, queryEnd),
  };
}

/** Whether a query (`?…`, possibly with a fragment) sets run_id. */
export function queryHasRunId(query: string | undefined): boolean {
  return query?.startsWith("?") === true && findRunIdParam(query, 0) !== undefined;
}
