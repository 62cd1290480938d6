/**
 * Secret redaction for everything the tool prints: excerpts, errors, logs.
 * Over-redacting a line is harmless; leaking a token is not.
 */

const MASK = "***";

const PATTERNS: Array<[RegExp, string]> = [
  // Authorization headers and bearer tokens in any syntax.
  [/(\bBearer\s+)(?!\$\{|\$[A-Z_]|<)[^\s"'`,;)}\]]+/gi, `$1${MASK}`],
  [/(\bAuthorization["']?\s*[:=]\s*["'`]?)(?!Bearer\b)(?!\$\{|\$[A-Z_]|<)[^\s"'`,;)}\]]+/gi, `$1${MASK}`],
  // Token-looking option values: apiToken: "...", bearer = '...', api_key="...".
  [
    /(\b(?:api[_-]?token|api[_-]?key|bearer(?:_auth)?|token|secret|password|access[_-]?key)["']?\s*[:=]\s*["'`])([^"'`\s]{4,})(["'`])/gi,
    `$1${MASK}$3`,
  ],
  // Well-known token prefixes wherever they appear.
  [/\b(gh[pousr]_|github_pat_|sk-|sk_live_|sk_test_|xox[bap]-)[A-Za-z0-9_-]{8,}/g, `$1${MASK}`],
];

export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
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
    .replace(/([?&](?:token|key|api_key|apikey|access_token|secret)=)[^&#\s]+/gi, `$1${MASK}`);
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
