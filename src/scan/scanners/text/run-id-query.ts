/**
 * A `run_id` query parameter being built, V1's way of naming the run to
 * read (`GET /run?run_id=<id>`): `q.Set("run_id", id)`, `query.Add("run_id",
 * id)`, `'query' => ['run_id' => $id]`, `.query(&[("run_id", id)])`,
 * `--data-urlencode "run_id=..."`, a `run_id` entry under a `query:` setting.
 * Reading `run_id` from a response is not this, so bare mentions never count.
 */
import { ENDPOINTS, HOSTS } from "../../../knowledge/migration.js";
import type { TextSyntax } from "../../../platform/file-types.js";
import { statementAround } from "../../../lang/text/statements.js";
import type { TextFile } from "../../../lang/text/text-file.js";

const KEY = ENDPOINTS.getRun.v1.query;
const Q = `["']${KEY}["']`;

/** Methods that put a key and a value into a query (or a collection that becomes one). */
const SETTERS = new Set([
  "set",
  "add",
  "append",
  "put",
  "insert",
  "param",
  "parameter",
  "query",
  "queryparam",
  "queryparameter",
  "addqueryparameter",
  "setqueryparameter",
  "addparameter",
  "setparameter",
  "addqueryparam",
  "withqueryparam",
  "append_pair",
  "keyvaluepair",
  "basicnamevaluepair",
  "namevaluepair",
  "pair",
]);

interface Construction {
  pattern: RegExp;
  /** Group holding the method name that must be a setter. */
  setterGroup?: number;
  /** Group holding a name that must say "query" or "param" (checked in code: `\w*query\w*` in a pattern is quadratic). */
  queryNameGroup?: number;
  /** The statement must also say it is building a query. */
  needsQueryContext?: boolean;
  /** Only in these syntaxes (a shape that means something else in data files). */
  only?: TextSyntax[];
}

const CONSTRUCTIONS: Construction[] = [
  // q.Set("run_id", id), addQueryParameter("run_id", id), new KeyValuePair<string, string>("run_id", id)
  { pattern: new RegExp(String.raw`\b([A-Za-z_]\w*)\s*(?:<[^<>()]*>)?\s*\(\s*${Q}\s*,`, "g"), setterGroup: 1 },
  // QueryHelpers.AddQueryString(url, "run_id", id)
  { pattern: new RegExp(String.raw`\bAddQueryString\s*\([^()]*?,\s*${Q}\s*,`, "g") },
  // Rust .query(&[("run_id", id)]), C# { "run_id", id } initializers
  { pattern: new RegExp(String.raw`[[,(]\s*\(\s*${Q}\s*,|\{\s*"${KEY}"\s*,`, "g") },
  // Go url.Values{"run_id": {id}} / {"run_id": []string{id}}
  { pattern: new RegExp(String.raw`"${KEY}"\s*:\s*(?:\{|\[\]string\s*\{)`, "g"), only: ["c-like"] },
  // PHP/Ruby 'run_id' => $id and Kotlin "run_id" to id, inside query options
  { pattern: new RegExp(String.raw`${Q}\s*=>|${Q}\s+to\b`, "g"), needsQueryContext: true },
  // C# query["run_id"] = id
  { pattern: new RegExp(String.raw`\b(\w+)\s*\[\s*${Q}\s*\]\s*=(?!=)`, "g"), queryNameGroup: 1 },
  // Ruby URI.encode_www_form(run_id: id), Python urlencode({"run_id": id}), PHP http_build_query(['run_id' => $id])
  {
    pattern: new RegExp(
      String.raw`\b(?:encode_www_form|urlencode|to_query|http_build_query)\s*\(\s*[^()\n]{0,200}?["':]?\b${KEY}\b["']?\s*(?:=>|:)`,
      "g",
    ),
  },
  // "?run_id=" + id, "&run_id=" (a full URL is handled with its host)
  { pattern: new RegExp(`[?&]${KEY}=`, "g") },
  // curl -G --data-urlencode "run_id=$ID"
  { pattern: new RegExp(String.raw`(?:--data-urlencode|--data|\s-d)\s+["']?${KEY}=`, "g") },
  // Settings: status_param: run_id, id_query = "run_id"
  {
    pattern: new RegExp(String.raw`(?<![\w.-])([\w.-]+)["']?\s*[:=]\s*["']?${KEY}["']?\s*(?=$|[,}#;\s])`, "gm"),
    queryNameGroup: 1,
  },
  // query: { run_id: ... }, 'query' => ['run_id' => ...], params = { run_id = ... }
  {
    pattern: new RegExp(
      String.raw`\b(?:query|params|parameters|query_?params|queryParams)["']?\s*(?:=>|[:=])\s*[{[][^}\]\n]*?["']?\b${KEY}\b["']?\s*(?:=>|[:=])`,
      "gi",
    ),
  },
];

const QUERY_CONTEXT = /query|params|parameter|http_build_query|QUERY/i;
const QUERY_NAME = /query|param|qs/i;
/** A settings key that may name a query: `query:`, `params:`, `[comfy.query]`; its name is checked against QUERY_NAME. */
const PARENT_KEY = /^\s*(?:-\s*)?\[?["']?([\w.-]+)["']?\]?\s*:?\s*[{[]?\s*$/;

export interface RunIdQuery {
  start: number;
  end: number;
}

export function findRunIdQueries(file: TextFile): RunIdQuery[] {
  const text = file.text;
  const out: RunIdQuery[] = [];
  const seen = new Set<number>();
  const add = (start: number): void => {
    if (seen.has(start)) return;
    seen.add(start);
    out.push({ start, end: start + KEY.length });
  };
  for (const construction of CONSTRUCTIONS) {
    if (construction.only && !construction.only.includes(file.syntax)) continue;
    for (const match of text.matchAll(construction.pattern)) {
      const at = match.index!;
      if (construction.setterGroup && !SETTERS.has(match[construction.setterGroup]!.toLowerCase())) continue;
      if (construction.queryNameGroup && !QUERY_NAME.test(match[construction.queryNameGroup]!)) continue;
      const keyAt = text.indexOf(KEY, at);
      if (keyAt < 0) continue;
      if (insideAbsoluteUrl(file, keyAt)) continue;
      if (construction.needsQueryContext && !QUERY_CONTEXT.test(statementAround(file, keyAt).text)) continue;
      add(keyAt);
    }
  }
  for (const at of nestedRunIdKeys(file)) add(at);
  return out.sort((a, b) => a.start - b.start);
}

/** `run_id` inside a URL that has its own host (`https://host/api/run?run_id=`): the URL is judged with its host. */
function insideAbsoluteUrl(file: TextFile, offset: number): boolean {
  const text = file.text;
  let i = offset;
  while (i > 0 && !/[\s"'`<>(),]/.test(text[i - 1]!) && offset - i < 500) i--;
  const token = text.slice(i, offset).toLowerCase();
  return token.includes("//") || file.hosts.legacy.some((host) => token.startsWith(host));
}

/** A `run_id` key (YAML, TOML, INI) whose parent mapping or section names a query. */
function nestedRunIdKeys(file: TextFile): number[] {
  const keyLine = new RegExp(String.raw`^(\s*)["']?${KEY}["']?\s*[:=]`);
  const out: number[] = [];
  if (!file.text.includes(KEY)) return out;
  for (let line = 2; line <= file.lineCount; line++) {
    const text = file.lineText(line);
    const match = keyLine.exec(text);
    if (!match) continue;
    const indent = match[1]!.length;
    for (let up = line - 1; up >= 1 && line - up <= 50; up--) {
      const parent = file.lineText(up);
      if (parent.trim() === "" || parent.trim().startsWith("#")) continue;
      const parentIndent = parent.length - parent.trimStart().length;
      // YAML: the first less indented line; TOML/INI: the section header.
      if (parentIndent < indent || parent.trimStart().startsWith("[")) {
        const key = PARENT_KEY.exec(parent)?.[1];
        if (key && /query|params|parameters/i.test(key)) out.push(file.lineStart(line) + text.indexOf(KEY));
        break;
      }
    }
  }
  return out;
}

export function runIdQueryMessage(): string {
  return (
    `V1 get-run: a ${KEY} query for GET {base}${ENDPOINTS.getRun.v1.path}?${KEY}=<id>. ` +
    `V2 puts the id in the path: ${ENDPOINTS.getRun.v2.method} {base}${ENDPOINTS.getRun.v2.path} on ${HOSTS.v2.apiBase}.`
  );
}
