/**
 * The HTTP method of a request, read from the text of its statement in any
 * language: curl flags, `http.NewRequest("POST", ...)`, `PostAsync`,
 * `.POST(`, `Request.Builder().post(`, `CURLOPT_POST`, reqwest `.post(`,
 * `"method": "POST"`. When several signals appear, the one nearest the URL wins.
 */

export type HttpMethod = "GET" | "POST";

interface Signal {
  pattern: RegExp;
  method: HttpMethod;
  /** The signal is a generic `.get(` call: it counts only when the URL is among its arguments. */
  urlInside?: boolean;
}

const SIGNALS: Signal[] = [
  // "POST" as a literal, an enum member (Method::POST, HttpMethod.POST), Java's .POST(), curl -X POST, HTTP docs.
  { pattern: /\bPOST\b/g, method: "POST" },
  { pattern: /\bGET\b/g, method: "GET" },
  {
    pattern: /\b(?:MethodPost|HttpPost|CURLOPT_POST(?:FIELDS)?|Net::HTTP::Post)\b|\b(?:Http)?Method\.Post\b/g,
    method: "POST",
  },
  { pattern: /\b(?:MethodGet|HttpGet|CURLOPT_HTTPGET|Net::HTTP::Get)\b|\b(?:Http)?Method\.Get\b/g, method: "GET" },
  // Go http.Post/PostForm, C# PostAsync, Flurl PostJsonAsync, Spring postForObject, OkHttp/Guzzle/reqwest/ktor .post(, Laravel Http::post(.
  {
    pattern:
      /(?:\.|::|\b)post(?:Async|AsJsonAsync|(?:Json|String|UrlEncoded|Multipart)Async|Form|ForObject|ForEntity|ForLocation|Json)?\s*(?:<[^>]*>)?\s*\(/gi,
    method: "POST",
  },
  { pattern: /\b(?:wp_remote_post|curl_post)\s*\(|--post-(?:data|file)\b|-Method\s+["']?Post\b/gi, method: "POST" },
  { pattern: /\bmethod["']?\s*(?:=>|:|=)\s*["'`]?post\b/gi, method: "POST" },
  { pattern: /\bmethod["']?\s*(?:=>|:|=)\s*["'`]?get\b/gi, method: "GET" },
  // C# GetAsync/GetStringAsync/GetFromJsonAsync, Flurl GetJsonAsync, Spring getForObject, OkHttp's argument-less .get().
  {
    pattern:
      /\bGet(?:Async|StringAsync|StreamAsync|ByteArrayAsync|FromJsonAsync|JsonAsync|BytesAsync)\s*(?:<[^>]*>)?\s*\(|\.get(?:ForObject|ForEntity)\s*\(|\.get\(\s*\)/g,
    method: "GET",
  },
  {
    pattern: /\bhttp\.Get\s*\(|\bget_response\s*\(|\b(?:wp_remote_get|file_get_contents)\s*\(|-Method\s+["']?Get\b/gi,
    method: "GET",
  },
  // A generic .get( / ::get( (maps and configs have one too): only when it receives the URL.
  { pattern: /(?:\.|::|->)get\s*\(/gi, method: "GET", urlInside: true },
];

/** The method a statement uses for the URL at `anchor` (an index into `statement`). */
export function methodInStatement(statement: string, anchor: number): HttpMethod | undefined {
  const curl = curlMethod(statement);
  if (curl) return curl;
  let best: { method: HttpMethod; distance: number } | undefined;
  for (const signal of SIGNALS) {
    for (const match of statement.matchAll(signal.pattern)) {
      const at = match.index!;
      if (signal.urlInside && !argumentsContain(statement, at + match[0].length - 1, anchor)) continue;
      const distance = Math.abs(at - anchor);
      if (!best || distance < best.distance) best = { method: signal.method, distance };
    }
  }
  return best?.method;
}

/**
 * curl's own rules: an explicit -X wins; -G sends data as a query; any data
 * flag makes it a POST; otherwise it is a GET.
 */
function curlMethod(statement: string): HttpMethod | undefined {
  if (!/(^|[\s;|&(`$])curl\s/.test(statement)) return undefined;
  const explicit = /(?:\s-X\s*|\s--request[\s=]+)["']?([A-Za-z]+)/.exec(statement);
  if (explicit) {
    const method = explicit[1]!.toUpperCase();
    return method === "POST" || method === "GET" ? method : undefined;
  }
  if (/\s(?:-G|--get)(?=\s|$)/.test(statement)) return "GET";
  if (/\s(?:-d|--data(?:-raw|-binary|-urlencode|-ascii)?|--json|-F|--form)(?=[\s=@"']|$)/.test(statement))
    return "POST";
  return "GET";
}

/** True when `anchor` lies between the parenthesis at `open` and the one closing it. */
function argumentsContain(text: string, open: number, anchor: number): boolean {
  if (anchor <= open) return false;
  let depth = 0;
  for (let i = open; i < text.length && i <= anchor; i++) {
    const c = text[i];
    if (c === "(") depth++;
    else if (c === ")") {
      depth--;
      if (depth === 0) return false;
    }
  }
  return depth > 0;
}

/** A setting or variable name that says what the URL is for: `status_path`, `createRunUrl`. */
export function methodFromName(name: string): HttpMethod | undefined {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  const get = words.some((w) => GET_WORDS.has(w));
  const post = words.some((w) => POST_WORDS.has(w));
  if (get === post) return undefined;
  return get ? "GET" : "POST";
}

const GET_WORDS = new Set([
  "status",
  "poll",
  "polling",
  "get",
  "fetch",
  "check",
  "result",
  "results",
  "retrieve",
  "lookup",
  "read",
]);
const POST_WORDS = new Set(["create", "queue", "submit", "post", "start", "trigger", "enqueue", "launch", "dispatch"]);
