/**
 * Secret redaction for everything the tool prints: excerpts, errors, logs.
 * Over-redacting a line is harmless; leaking a token is not.
 */

const MASK = "***";

/** A value that stands for a secret elsewhere (`${TOKEN}`, `$TOKEN`, `<token>`, `{{ secrets.X }}`), not a secret itself. */
const PLACEHOLDER = String.raw`(?!\$|<|\{|%|\*\*\*)`;
/** Key names whose value is a secret, in `key: value`, `key=value` and `?key=value`. */
const SECRET_KEY = `[A-Za-z0-9_.-]*?(?:password|passwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth)`;

const PATTERNS: Array<[RegExp, string | ((...groups: string[]) => string)]> = [
  // Authorization headers and bearer tokens in any syntax.
  [/(\bBearer\s+)(?!\$\{|\$[A-Z_]|<)[^\s"'`,;)}\]]+/gi, `$1${MASK}`],
  [/(\bAuthorization["']?\s*[:=]\s*["'`]?)(?!Bearer\b)(?!\$\{|\$[A-Z_]|<)[^\s"'`,;)}\]]+/gi, `$1${MASK}`],
  // URL userinfo anywhere: https://user:pass@host, https://TOKEN@host.
  [/\b([a-z][a-z0-9+.-]*:\/\/)(?!\*\*\*@)[^\s/@'"`<>]+@/gi, `$1${MASK}@`],
  // scp-style remotes with a password: user:pass@host:path (user@host:path alone holds no secret).
  [/(?<![\w/:.-])([A-Za-z0-9._-]+):(?!\*\*\*@)[^\s@/:'"`]+@([A-Za-z0-9.-]+:)/g, `$1:${MASK}@$2`],
  // curl -u user:pass / --user=user:pass.
  [/(\bcurl\b.*?\s(?:-u|--user)(?:\s+|=)["']?)([^\s:"']+):(?!\*\*\*)[^\s"']+/gi, `$1$2:${MASK}`],
  // A literal fallback after an env read is a secret committed as a default (a URL keeps its shape, losing only credentials).
  [
    /((?:process\.env|import\.meta\.env)(?:\.[A-Za-z_$][\w$]*|\[[^\]]*\])\s*(?:\?\?|\|\|)\s*(["'`]))([^"'`]*)(\2)/g,
    (_m, head: string, _q: string, value: string, close: string) => `${head}${fallbackValue(value)}${close}`,
  ],
  [
    /((?:\bos\.getenv|\bos\.environ\.get|\bENV\.fetch|\bgetenv)\(\s*["'][^"']*["']\s*,\s*(["']))([^"']*)(\2)/g,
    (_m, head: string, _q: string, value: string, close: string) => `${head}${fallbackValue(value)}${close}`,
  ],
  [
    /((?:\bENV\[\s*["'][^"']*["']\s*\]|\bENV\.fetch\(\s*["'][^"']*["']\s*\)\s*\{)\s*(?:\|\|)?\s*(["']))([^"']*)(\2)/g,
    (_m, head: string, _q: string, value: string, close: string) => `${head}${fallbackValue(value)}${close}`,
  ],
  // Token-looking option values: apiToken: "...", bearer = '...', api_key="...".
  [
    /(\b(?:api[_-]?token|api[_-]?key|bearer(?:_auth)?|token|secret|password|access[_-]?key)["']?\s*[:=]\s*["'`])([^"'`\s]{4,})(["'`])/gi,
    `$1${MASK}$3`,
  ],
  // Query and form secrets: ?token=…, &private_token=…, api_key=… (a dotted or quoted key too).
  [
    new RegExp(
      String.raw`((?:^|[?&;\s"'\`(,])(?:${SECRET_KEY}|[A-Za-z0-9_.-]*key)=)${PLACEHOLDER}[^&#\s"'\`;,)]+?(?=[:.]?(?:\s|$)|[&#"'\`;,)])`,
      "gi",
    ),
    `$1${MASK}`,
  ],
  // YAML / INI / properties values of secret keys, unquoted: `password: hunter2`, `secret = abc`.
  [
    new RegExp(String.raw`^(\s*(?:-\s+)?${SECRET_KEY}\s*[:=][ \t]*)${PLACEHOLDER}(?!["'\`|>])([^\s#;]+)`, "gim"),
    `$1${MASK}`,
  ],
  // Well-known token prefixes wherever they appear.
  [/\b(gh[pousr]_|github_pat_|sk-|sk_live_|sk_test_|xox[bap]-|cd_live_|cd_test_)[A-Za-z0-9_-]{8,}/g, `$1${MASK}`],
];

/** A default after an env read: a URL keeps its shape (credentials go), anything else is masked. */
function fallbackValue(value: string): string {
  if (value === "" || value === MASK) return value;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? redactUrlCredentials(value) : MASK;
}

export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement as string);
  return out;
}

/**
 * Every string inside a value (a report, a campaign), redacted: for outputs
 * serialized whole (JSON, SARIF), where a secret in any field would leak.
 */
export function redactDeep<T>(value: T): T {
  if (typeof value === "string") return redactSecrets(value) as T;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = redactDeep(item);
    return out as T;
  }
  return value;
}

/** A dotenv line keeps its key and a URL value; any other value, and any trailing comment, is masked. */
export function redactEnvLine(line: string): string {
  const match = /^(\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_.-]*\s*=\s*)(["']?)([^\s"'#]*)(.*)$/.exec(line);
  if (!match) return line.trimStart().startsWith("#") ? redactSecrets(line) : MASK;
  const [, key, quote, value, rest] = match as unknown as [string, string, string, string, string];
  if (value === "" && rest.trim() === "") return line;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return `${key}${MASK}`;
  const comment = rest.includes("#") ? ` # ${MASK}` : "";
  return `${key}${quote}${redactUrlCredentials(value)}${quote}${comment}`;
}

/** `https://user:secret@host` and `?token=...` keep their shape but lose the secret. */
export function redactUrlCredentials(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/i, `$1${MASK}@`)
    .replace(
      /([?&;](?:token|key|api_key|apikey|access_token|private_token|secret|password|passwd|auth)=)[^&#\s]+/gi,
      `$1${MASK}`,
    );
}

/** Below this length a secret is masked where it stands alone, not inside longer words ("ab" in "table"). */
const SHORT_SECRET = 4;

/**
 * Masks known secret values (tokens the tool was given), whatever their
 * length: a long one wherever it occurs, a short one wherever it is not part
 * of a longer word, which is how an echo of it reads ("token ab", "Bearer ab",
 * `"ab"`). Longer secrets first, so one that contains another is masked whole.
 * A secret is also masked as it reads inside a JSON string (`a"b` as `a\"b`),
 * since reports are printed as JSON.
 */
export function maskKnownSecrets(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text;
  const given = secrets.filter((s): s is string => Boolean(s));
  const escaped = given.map((s) => JSON.stringify(s).slice(1, -1));
  const known = [...new Set([...given, ...escaped])].sort((a, b) => b.length - a.length);
  for (const secret of known) {
    if (secret.length >= SHORT_SECRET) out = out.split(secret).join(MASK);
    else out = out.replace(new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(secret)}(?![A-Za-z0-9])`, "g"), MASK);
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export function excerptOf(line: string, maxLength = 200): string {
  const trimmed = line.trim();
  const short = trimmed.length > maxLength ? `${trimmed.slice(0, maxLength - 1)}…` : trimmed;
  return redactSecrets(short);
}
