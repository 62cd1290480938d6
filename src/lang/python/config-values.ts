/**
 * Values read out of config documents the code loads from the repository
 * (`CONFIG["comfy"]["base_url"]` with `CONFIG = yaml.safe_load(f)`,
 * `cfg.get("comfy", {}).get("base_url")`, `tomllib.load(f)`, `json.load(f)`,
 * configparser's `parser["comfy"]["base_url"]` and `parser.get("comfy",
 * "base_url")` after `parser.read("settings.ini")`), and the process
 * environment's mapping (`os.environ["COMFY_API_URL"]`).
 */
import { HOLE } from "../../core/urls.js";
import { isEnvironMapping } from "./env-reads.js";
import { argumentsAt, type Expr } from "./expr-ranges.js";
import type { PyModule } from "./module.js";
import { CONFIG_FILE } from "./repo-sources.js";
import type { PyRange } from "./syntax.js";
import { isName, isOp, isString, stringValue } from "./tokens.js";
import type { PyValues } from "./values.js";

const MAX_DEPTH = 10;
/** Module scope: an offset before every line. */
const MODULE_SCOPE = -1;
/** Functions that parse a config file or its text. */
const LOADERS = new Set(["safe_load", "load", "loads", "full_load", "unsafe_load"]);
/** Modules whose loaders parse config formats (`OmegaConf.load(path)` reads the path itself). */
const FORMAT_MODULES = new Set(["yaml", "json", "tomllib", "tomli", "toml", "rtoml", "ujson", "orjson", "OmegaConf"]);
const PARSER_CLASSES = new Set(["ConfigParser", "RawConfigParser", "SafeConfigParser"]);

/** A key read from a document: `["k"]`, `.get("k"[, fallback])` or configparser's `.get(section, option)`. */
interface Step {
  key: string;
  /** A second literal argument: configparser's option, or a dict's literal default. */
  option?: string;
  fallback?: Expr;
}

/**
 * The value a subscript chain starting at `e.lo` reads from a loaded document
 * or the environment, and the token after the chain; undefined when the
 * chain's root is neither.
 */
export function chainValue(values: PyValues, e: Expr, depth: number): { value: string; end: number } | undefined {
  const chain = parseChain(e);
  if (!chain || depth > MAX_DEPTH) return undefined;
  const t = e.seq.tokens;
  if (isEnvironMapping(chain.root) && chain.subscript && chain.steps.length === 1) {
    return { value: values.sources?.env?.(chain.steps[0]!.key) ?? HOLE, end: chain.end };
  }
  if (chain.call && e.seq !== values.module.seq) return undefined;
  const root = chain.call
    ? documentOfRange(values, chain.call, depth + 1)
    : documentOf(values, chain.root, t[e.lo]!.start, depth + 1);
  if (root === undefined) return undefined;
  let node: unknown = root;
  for (const step of chain.steps) {
    const next = stepInto(node, step);
    if (next === undefined && step.fallback) return { value: values.valueAt(step.fallback, depth + 1), end: chain.end };
    node = next;
  }
  return { value: typeof node === "string" || typeof node === "number" ? String(node) : HOLE, end: chain.end };
}

/** A document subtree an expression of the module names (used for attribute reads: `cfg.comfy.base_url`). */
export function documentAt(values: PyValues, range: PyRange, depth: number): unknown {
  return documentOfRange(values, range, depth);
}

interface Chain {
  root: string[];
  /** The root when it is a call rather than a name. */
  call?: PyRange;
  steps: Step[];
  end: number;
  subscript: boolean;
}

function parseChain(e: Expr): Chain | undefined {
  const t = e.seq.tokens;
  const partner = (i: number): number => e.seq.partner[i] ?? -1;
  const root: string[] = [];
  let i = e.lo;
  while (t[i]?.kind === "name" && i < e.hi) {
    root.push(t[i]!.value);
    if (!isOp(t[i + 1], ".") || t[i + 2]?.kind !== "name" || (isName(t[i + 2], "get") && isOp(t[i + 3], "("))) break;
    i += 2;
  }
  i++;
  // `json.load(open("config.json"))["comfy"]`: the loader's call is the root.
  let call: PyRange | undefined;
  if (isOp(t[i], "(") && partner(i) > i && partner(i) < e.hi) {
    call = { lo: e.lo, hi: partner(i) + 1 };
    i = partner(i) + 1;
  }
  const steps: Step[] = [];
  let subscript = false;
  while (i < e.hi) {
    if (isOp(t[i], "[") && partner(i) === i + 2 && isPlainString(e, i + 1)) {
      steps.push({ key: literal(e, i + 1) });
      subscript = true;
      i += 3;
    } else if (isOp(t[i], ".") && isName(t[i + 1], "get") && isOp(t[i + 2], "(") && partner(i + 2) > i + 2) {
      const args = argumentsAt(e, i + 2);
      const [first, second, third] = args.positional;
      if (!first || first.hi - first.lo !== 1 || !isPlainString(e, first.lo)) return undefined;
      const option =
        second && second.hi - second.lo === 1 && isPlainString(e, second.lo) ? literal(e, second.lo) : undefined;
      // configparser: get(section, option, fallback=…); a dict: get(key, default).
      const fallback = args.keyword.get("fallback") ?? (option !== undefined ? third : second) ?? second;
      steps.push({
        key: literal(e, first.lo),
        ...(option !== undefined ? { option } : {}),
        ...(fallback ? { fallback } : {}),
      });
      i = partner(i + 2) + 1;
    } else {
      break;
    }
  }
  if (steps.length === 0 || root.length === 0) return undefined;
  return { root, ...(call ? { call } : {}), steps, end: i, subscript };
}

/** A step's entry: `get(section, option)` when the section holds the option, else `get(key, default)`. */
function stepInto(node: unknown, step: Step): unknown {
  const entry = entryOf(node, step.key);
  if (step.option === undefined) return entry;
  const option = entryOf(entry, step.option);
  return option !== undefined ? option : entry;
}

function isPlainString(e: Expr, index: number): boolean {
  const token = e.seq.tokens[index];
  return isString(token) && !token.prefix.includes("f");
}

function literal(e: Expr, index: number): string {
  return stringValue(e.seq.text, e.seq.tokens[index] as Parameters<typeof stringValue>[1]);
}

function entryOf(node: unknown, key: string): unknown {
  if (!node || typeof node !== "object" || Array.isArray(node)) return undefined;
  const record = node as Record<string, unknown>;
  return Object.hasOwn(record, key)
    ? record[key]
    : Object.hasOwn(record, key.toLowerCase())
      ? record[key.toLowerCase()]
      : undefined;
}

/** The document a dotted name holds: a local or module binding, a name imported from another module, or a module's name. */
function documentOf(values: PyValues, names: readonly string[], offset: number, depth: number): unknown {
  if (depth > MAX_DEPTH || names.length > 2) return undefined;
  const module = values.module;
  const onSelf = names.length === 2 && (names[0] === "self" || names[0] === "cls");
  if (names.length === 1 || onSelf) {
    const key = onSelf ? `self.${names[1]}` : names[0]!;
    const assignment = module.resolve(key, offset);
    if (assignment) {
      const parser = parserDocument(values, key, assignment.value, depth + 1);
      return parser !== undefined ? parser : documentOfRange(values, assignment.value, depth + 1);
    }
    if (onSelf) return undefined;
    const target = values.link?.(names[0]!);
    return target?.name !== undefined ? documentOf(target.values, [target.name], MODULE_SCOPE, depth + 1) : undefined;
  }
  const target = values.link?.(names[0]!);
  return target && target.name === undefined
    ? documentOf(target.values, [names[1]!], MODULE_SCOPE, depth + 1)
    : undefined;
}

/** What an expression loads: a loader's call, a chain into another document, a function that returns one. */
function documentOfRange(values: PyValues, range: PyRange, depth: number): unknown {
  if (depth > MAX_DEPTH) return undefined;
  const module = values.module;
  const t = module.tokens;
  const open = module.callSpanning(range);
  if (open === undefined) {
    const lo = isName(t[range.lo], "await") ? range.lo + 1 : range.lo;
    const e: Expr = { seq: module.seq, lo, hi: range.hi };
    const chain = parseChain(e);
    if (chain && chain.end === range.hi) {
      let node = chain.call
        ? documentOfRange(values, chain.call, depth + 1)
        : documentOf(values, chain.root, t[lo]!.start, depth + 1);
      for (const step of chain.steps) node = stepInto(node, step);
      return node;
    }
    const names = dotted(module, lo, range.hi);
    return names ? documentOf(values, names, t[lo]!.start, depth + 1) : undefined;
  }
  const callee = module.calleeOf(open);
  if (!callee || callee.receiverCall !== undefined) return undefined;
  const segments = callee.segments;
  const last = segments[segments.length - 1]!;
  if (LOADERS.has(last) && (segments.length === 1 || FORMAT_MODULES.has(segments[segments.length - 2]!))) {
    const source = module.callArguments(open).positional[0];
    const path = source && pathOf(values, source, depth + 1);
    return path !== undefined ? values.sources?.document?.(path) : undefined;
  }
  // A function of this module (or imported) that returns the document (`def load_config(): …`).
  if (segments.length !== 1) return undefined;
  const fn = module.moduleFunction(last);
  if (fn) {
    for (const value of module.returnValues(fn.scope)) {
      const found = documentOfRange(values, value, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const target = values.link?.(last);
  if (target?.name === undefined) return undefined;
  const there = target.values.module.moduleFunction(target.name);
  if (!there) return undefined;
  for (const value of target.values.module.returnValues(there.scope)) {
    const found = documentOfRange(target.values, value, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** `parser = configparser.ConfigParser()` then `parser.read("settings.ini")`: the INI file it reads. */
function parserDocument(values: PyValues, key: string, range: PyRange, depth: number): unknown {
  const module = values.module;
  const open = module.callSpanning(range);
  const callee = open !== undefined ? module.calleeOf(open) : undefined;
  if (!callee || !PARSER_CLASSES.has(callee.segments[callee.segments.length - 1]!)) return undefined;
  const receiver = key.split(".");
  const t = module.tokens;
  for (let i = 0; i < t.length; i++) {
    if (!isOp(t[i], "(")) continue;
    const call = module.calleeOf(i);
    const method = call?.segments[call.segments.length - 1];
    if (!call || (method !== "read" && method !== "read_file")) continue;
    if (call.segments.slice(0, -1).join(".") !== receiver.join(".")) continue;
    const source = module.callArguments(i).positional[0];
    const path = source && pathOf(values, source, depth + 1);
    if (path !== undefined) return values.sources?.document?.(path);
  }
  return undefined;
}

/**
 * The config file an argument names: the last literal file name in it
 * (`open("config.yaml")`, `Path(__file__).parent / "config.yaml"`,
 * `os.path.join(BASE_DIR, "settings.ini")`), through the names it reads
 * (`with open(CONFIG_PATH) as f` … `yaml.safe_load(f)`).
 */
function pathOf(values: PyValues, range: PyRange, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const module = values.module;
  const t = module.tokens;
  let found: string | undefined;
  for (let i = range.lo; i < range.hi; i++) {
    const token = t[i]!;
    if (!isString(token) || token.prefix.includes("f")) continue;
    const text = stringValue(module.text, token);
    if (CONFIG_FILE.test(text)) found = text;
  }
  if (found !== undefined) return found;
  for (let i = range.lo; i < range.hi; i++) {
    if (t[i]?.kind !== "name" || isOp(t[i - 1], ".") || isOp(t[i + 1], "(")) continue;
    const assignment = module.resolve(t[i]!.value, t[i]!.start);
    const path = assignment && pathOf(values, assignment.value, depth + 1);
    if (path !== undefined) return path;
  }
  const value = values.valueAt(range, depth + 1);
  const tail = value.slice(value.lastIndexOf(HOLE) + 1);
  return CONFIG_FILE.test(tail) ? tail : undefined;
}

function dotted(module: PyModule, lo: number, hi: number): string[] | undefined {
  const names: string[] = [];
  for (let i = lo; i < hi; i += 2) {
    if (module.tokens[i]?.kind !== "name" || (i + 1 < hi && !isOp(module.tokens[i + 1], "."))) return undefined;
    names.push(module.tokens[i]!.value);
  }
  return names.length > 0 ? names : undefined;
}
