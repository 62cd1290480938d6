/**
 * Node pins in Python code that writes the commands installing the node:
 * Modal's `run_commands(...)`, a generated Dockerfile, a `subprocess` line.
 * Each string expression (adjacent literals, `+` chains, f-strings,
 * `.format(...)` and `%`) is rebuilt with the constants of the file filled
 * in, then read as a Dockerfile when it holds instructions, else as shell
 * commands, by the same tracker as real Dockerfiles and scripts. A SHA kept
 * in a constant is reported where the constant is written.
 */
import { PyModule } from "../../../lang/python/module.js";
import { fStringParts, isName, isOp, isString, type PyStringToken, type PyToken } from "../../../lang/python/tokens.js";
import { NodeCommandTracker } from "./node-pin-commands.js";
import type { NodePinSite } from "./node-pin-finding.js";
import { append, type Built, placeholder, readGenerated, slice } from "./node-pin-generated.js";

interface Range {
  lo: number;
  hi: number;
}

const MAX_DEPTH = 5;
const ENV_GETTERS = new Set(["os.getenv", "getenv", "os.environ.get", "environ.get"]);

export function pythonCodePins(text: string): NodePinSite[] {
  const module = new PyModule(text);
  const tracker = new NodeCommandTracker("dockerfile");
  const t = module.tokens;
  const read = (built: Built): void => readGenerated(built, tracker);
  // `TEMPLATE.format(ref=SHA)`, `string.Template(...).substitute(sha=SHA)`: the template is read once, filled in, where it is filled.
  const templates = new Map<number, { body: number; fill: "format" | "substitute" }>();
  for (let i = 0; i < t.length; i++) {
    if (!isName(t[i]) || isOp(t[i - 1], ".") || !isOp(t[i + 1], ".") || !isOp(t[i + 3], "(")) continue;
    const method = t[i + 2]!.value;
    const fill =
      method === "format"
        ? "format"
        : method === "substitute" || method === "safe_substitute"
          ? "substitute"
          : undefined;
    const value = fill && module.resolve(t[i]!.value, t[i]!.start)?.value;
    if (!fill || !value) continue;
    if (fill === "format" && isString(t[value.lo])) templates.set(i + 3, { body: value.lo, fill });
    const open = fill === "substitute" ? module.callSpanning(value) : undefined;
    const callee = open === undefined ? undefined : module.calleeOf(open);
    if (callee && callee.segments[callee.segments.length - 1] === "Template" && isString(t[open! + 1]))
      templates.set(i + 3, { body: open! + 1, fill });
  }
  const templateTokens = new Set([...templates.values()].map((template) => template.body));
  for (let i = 0; i < t.length; i++) {
    const template = templates.get(i);
    if (template) {
      const body = chainAt(module, template.body, 0).built;
      read(template.fill === "format" ? formatCall(module, body, i, 0) : substituteCall(module, body, i, 0));
    }
    if (!isString(t[i]) || isString(t[i - 1]) || isOp(t[i - 1], "+") || templateTokens.has(i)) continue;
    const { built, next } = chainAt(module, i, 0);
    // Skip only the chain's own tokens: a `.format(` inside it has been read with it.
    i = next - 1;
    read(built);
  }
  return tracker.sites();
}

/** The string expression starting at token `i`: adjacent literals and `+` chains of literals and names. */
function chainAt(module: PyModule, i: number, depth: number): { built: Built; next: number } {
  const t = module.tokens;
  const built: Built = { text: "", offsets: [] };
  let j = i;
  for (;;) {
    const token = t[j];
    if (isString(token)) {
      let part = literal(module, token, depth);
      // `"...{sha}".format(sha=SHA)` and `"...%s" % SHA` apply to the literal just before them.
      if (isOp(t[j + 1], ".") && isName(t[j + 2], "format") && isOp(t[j + 3], "(")) {
        part = formatCall(module, part, j + 3, depth);
        j = module.partner(j + 3) + 1;
      } else if (isOp(t[j + 1], "%")) {
        part = percentFormat(module, token, j + 2, depth);
        j = module.partner(j + 2) > 0 && isOp(t[j + 2], "(") ? module.partner(j + 2) + 1 : j + 3;
      } else j++;
      append(built, part);
    } else if (isOp(token, "+") && j > i && (isString(t[j + 1]) || isName(t[j + 1]))) {
      j++;
      if (isName(t[j])) {
        append(built, nameValue(module, t[j]!, depth));
        j++;
      }
    } else break;
  }
  return { built, next: Math.max(j, i + 1) };
}

/** A literal's value; an f-string's fields filled in from the file's constants. */
function literal(module: PyModule, token: PyStringToken, depth: number): Built {
  if (!token.prefix.includes("f"))
    return decoded(module.text, token.bodyStart, token.bodyEnd, token.prefix.includes("r"));
  const out: Built = { text: "", offsets: [] };
  let cursor = token.bodyStart;
  for (const part of fStringParts(module.text, token)) {
    if (part.kind === "text") {
      // The literal text runs up to the next `{`; offsets follow the source.
      const open = nextField(module.text, cursor, token.bodyEnd);
      append(out, decoded(module.text, cursor, open, token.prefix.includes("r")));
      cursor = open;
      continue;
    }
    append(out, expressionValue(module, part.start, part.end, depth));
    cursor = fieldEnd(module.text, part.end, token.bodyEnd);
  }
  return out;
}

/** Offset of the next replacement field's `{` (doubled braces are text). */
function nextField(text: string, from: number, end: number): number {
  for (let pos = from; pos < end; pos++) {
    if (text[pos] === "{" && text[pos + 1] === "{") pos++;
    else if (text[pos] === "{") return pos;
  }
  return end;
}

/** Just after the `}` closing the field whose expression ends at `from`. */
function fieldEnd(text: string, from: number, end: number): number {
  let depth = 0;
  for (let pos = from; pos < end; pos++) {
    if (text[pos] === "{") depth++;
    else if (text[pos] === "}" && depth-- === 0) return pos + 1;
  }
  return end;
}

/** The value of a field expression or format argument: a constant, or a placeholder the tracker reads as unresolved. */
function expressionValue(module: PyModule, start: number, end: number, depth: number): Built {
  const written = module.text.slice(start, end);
  const source = written.trim();
  const t = module.tokens;
  const first = module.tokenStartingAt(start + written.length - written.trimStart().length);
  if (first >= 0 && isString(t[first]) && t[first]!.end >= start + written.trimEnd().length)
    return literal(module, t[first] as PyStringToken, depth + 1);
  if (/^(self\.)?[A-Za-z_]\w*$/.test(source)) {
    const value = constantValue(module, source, start, depth);
    if (value) return value;
  }
  const subscript = /^([A-Za-z_]\w*)\[\s*(["'])([^"'\\]*)\2\s*\]$/.exec(source);
  if (subscript) {
    const value = dictEntry(module, subscript[1]!, subscript[3]!, start, depth);
    if (value) return value;
  }
  return placeholder(source, start);
}

function nameValue(module: PyModule, token: PyToken, depth: number): Built {
  return constantValue(module, token.value, token.start, depth) ?? placeholder(token.value, token.start);
}

/** A name bound to a string (a literal, an env lookup's default, another constant), with the offsets of where it is written. */
function constantValue(module: PyModule, key: string, at: number, depth: number): Built | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const assignment = module.resolve(key, at);
  if (!assignment) return undefined;
  const t = module.tokens;
  const { lo, hi } = assignment.value;
  if (isString(t[lo])) return chainAt(module, lo, depth + 1).built;
  if (hi - lo === 1 && isName(t[lo])) return constantValue(module, t[lo]!.value, t[lo]!.start, depth + 1);
  const open = module.callSpanning(assignment.value);
  const callee = open === undefined ? undefined : module.calleeOf(open);
  if (open !== undefined && callee && ENV_GETTERS.has(callee.segments.join("."))) {
    const args = module.splitTopLevel(open + 1, module.partner(open));
    const fallback = args[1];
    if (fallback && isString(t[fallback.lo])) return chainAt(module, fallback.lo, depth + 1).built;
  }
  return undefined;
}

/** The positional and keyword arguments of the call opening at `open`. */
function callArgs(module: PyModule, open: number): { positional: Range[]; keyword: Map<string, Range> } {
  const t = module.tokens;
  const positional: Range[] = [];
  const keyword = new Map<string, Range>();
  for (const arg of module.splitTopLevel(open + 1, module.partner(open))) {
    if (isName(t[arg.lo]) && isOp(t[arg.lo + 1], "=")) keyword.set(t[arg.lo]!.value, { lo: arg.lo + 2, hi: arg.hi });
    else positional.push(arg);
  }
  return { positional, keyword };
}

/** `PINS["node"]` with `PINS = {"node": "<sha>", …}` in the file. */
function dictEntry(module: PyModule, name: string, key: string, at: number, depth: number): Built | undefined {
  const t = module.tokens;
  const value = module.resolve(name, at)?.value;
  if (!value || !isOp(t[value.lo], "{") || module.partner(value.lo) !== value.hi - 1) return undefined;
  for (const item of module.splitTopLevel(value.lo + 1, value.hi - 1)) {
    const colon = module.findTopLevel(item.lo, item.hi, (token) => isOp(token, ":"));
    const keyToken = t[item.lo];
    if (
      colon !== item.lo + 1 ||
      !isString(keyToken) ||
      keyToken.value.slice(keyToken.bodyStart - keyToken.start, keyToken.bodyEnd - keyToken.start) !== key
    )
      continue;
    return rangeValue(module, { lo: colon + 1, hi: item.hi }, depth);
  }
  return undefined;
}

/** `"{}"`, `"{0}"` and `"{name}"` fields filled from the call's positional and keyword arguments. */
function formatCall(module: PyModule, body: Built, open: number, depth: number): Built {
  const { positional, keyword } = callArgs(module, open);
  let auto = 0;
  return fill(module, body, /\{\{|\}\}|\{([^{}]*)\}/g, depth, (field) => {
    const name = field.split(/[!:]/)[0]!.trim();
    return name === "" ? positional[auto++] : /^\d+$/.test(name) ? positional[Number(name)] : keyword.get(name);
  });
}

/** `string.Template` fields `$name` and `${name}` filled from `.substitute(name=...)`. */
function substituteCall(module: PyModule, body: Built, open: number, depth: number): Built {
  const { keyword } = callArgs(module, open);
  return fill(module, body, /\$\$|\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/g, depth, (name) => keyword.get(name));
}

/** `"... %s" % SHA` and `"... %s %s" % (A, B)`. */
function percentFormat(module: PyModule, token: PyStringToken, operand: number, depth: number): Built {
  const t = module.tokens;
  const args = isOp(t[operand], "(")
    ? module.splitTopLevel(operand + 1, module.partner(operand))
    : [{ lo: operand, hi: operand + 1 }];
  const body = decoded(module.text, token.bodyStart, token.bodyEnd, token.prefix.includes("r"));
  const out: Built = { text: "", offsets: [] };
  let index = 0;
  let last = 0;
  for (const match of body.text.matchAll(/%[sdr]/g)) {
    append(out, slice(body, last, match.index));
    const arg = args[index++];
    append(out, arg ? rangeValue(module, arg, depth) : slice(body, match.index, match.index + 2));
    last = match.index + 2;
  }
  append(out, slice(body, last, body.text.length));
  return out;
}

/** Replaces each field `pattern` matches (its name in group 1 or 2) by the argument `argFor` gives; other fields stay as written. */
function fill(
  module: PyModule,
  body: Built,
  pattern: RegExp,
  depth: number,
  argFor: (name: string) => Range | undefined,
): Built {
  const out: Built = { text: "", offsets: [] };
  let last = 0;
  for (const match of body.text.matchAll(pattern)) {
    const name = match[1] ?? match[2];
    if (name === undefined) continue;
    append(out, slice(body, last, match.index));
    const range = argFor(name);
    append(out, range ? rangeValue(module, range, depth) : slice(body, match.index, match.index + match[0].length));
    last = match.index + match[0].length;
  }
  append(out, slice(body, last, body.text.length));
  return out;
}

function rangeValue(module: PyModule, range: Range, depth: number): Built {
  const t = module.tokens;
  return expressionValue(module, t[range.lo]!.start, t[range.hi - 1]!.end, depth + 1);
}

/** A literal body with its escapes decoded; each character keeps the offset of what wrote it. */
function decoded(text: string, start: number, end: number, raw: boolean): Built {
  const out: Built = { text: "", offsets: [] };
  const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"', "\n": "" };
  for (let pos = start; pos < end; pos++) {
    const c = text[pos]!;
    if (c === "\\" && !raw && pos + 1 < end && ESCAPES[text[pos + 1]!] !== undefined) {
      const value = ESCAPES[text[pos + 1]!]!;
      if (value) {
        out.text += value;
        out.offsets.push(pos);
      }
      pos++;
      continue;
    }
    out.text += c;
    out.offsets.push(pos);
  }
  return out;
}
