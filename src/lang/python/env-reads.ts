/**
 * Reads of environment variables, with the fallback the code gives: the
 * standard library (`os.environ["X"]`, `os.getenv("X", d)`,
 * `os.environ.get("X")`), python-decouple and Starlette
 * (`config("X", default=d)`), environs and django-environ (`env("X",
 * default=d)`, `env.str("X", d)`). Without a fallback the value is the one
 * the repository's own env files set (`PySources.env`).
 */
import { argumentsAt, type Expr } from "./expr-ranges.js";
import { importBindings, type PyImportBinding } from "./imports.js";
import type { PyModule } from "./module.js";
import { isName, isOp, isString } from "./tokens.js";

export interface EnvRead {
  /** The variable's name, when it is a literal. */
  name: Expr | undefined;
  fallback: Expr | undefined;
}

const STDLIB_GETTERS = new Set(["os.getenv", "getenv", "os.environ.get", "environ.get", "os.environ.setdefault"]);
/** Mappings of the process environment (`os.environ["X"]`). */
export const ENVIRON_NAMES: ReadonlySet<string> = new Set(["os.environ", "environ"]);
/** Typed getters of environs / django-environ readers that return the text as it is. */
const TEXT_GETTERS = new Set(["str", "url", "get_value"]);
/** Reader objects: decouple's and Starlette's `Config`/`AutoConfig`, environs' and django-environ's `Env`. */
const READER_CLASS = /^(?:[A-Za-z_]\w*\.)*(?:Env|Config|AutoConfig)\s*\(/;
/** Packages whose `config`/`env` export reads the environment. */
const READER_PACKAGES = new Set(["decouple", "prettyconf", "environs", "environ", "starlette.config"]);
/** A second positional argument that is a cast, not a default (`env("X", str)`, `config("X", cast=…)` aside). */
const CASTS = new Set(["str", "int", "float", "bool", "list", "dict", "tuple", "Csv", "Choices"]);

const bindingsCache = new WeakMap<PyModule, Map<string, PyImportBinding>>();

/** The env read a call of `callee` at `open` is, if it is one. */
export function envReadOf(module: PyModule, e: Expr, callee: string, open: number): EnvRead | undefined {
  const args = argumentsAt(e, open);
  if (STDLIB_GETTERS.has(callee)) {
    return {
      name: args.positional[0] ?? args.keyword.get("key"),
      fallback: args.positional[1] ?? args.keyword.get("default"),
    };
  }
  const segments = callee.split(".");
  const typed = segments.length === 2 && TEXT_GETTERS.has(segments[1]!);
  const reader =
    segments.length <= (typed ? 2 : 1) ? readerOf(module, segments[0]!, e.seq.tokens[open]!.start) : undefined;
  if (!reader) return undefined;
  const name = args.positional[0] ?? args.keyword.get("var") ?? args.keyword.get("key") ?? args.keyword.get("option");
  if (!name || !isString(e.seq.tokens[name.lo])) return undefined;
  const t = e.seq.tokens;
  const positionalDefault = args.positional
    .slice(1)
    .find((arg) => !(arg.hi - arg.lo === 1 && isName(t[arg.lo]) && CASTS.has(t[arg.lo]!.value)) && !isCall(e, arg));
  const fallback = args.keyword.get("default") ?? positionalDefault ?? schemeDefault(module, reader, e, name);
  return { name, fallback };
}

/** django-environ's scheme: `environ.Env(COMFY_API_URL=(str, "https://…"))` gives the variable its default. */
function schemeDefault(module: PyModule, reader: Reader, e: Expr, name: Expr): Expr | undefined {
  if (reader === "imported") return undefined;
  const token = e.seq.tokens[name.lo]!;
  const variable = isString(token) ? e.seq.text.slice(token.bodyStart, token.bodyEnd) : "";
  const scheme = module.callArguments(reader.open).keyword.get(variable);
  const t = module.tokens;
  if (!scheme || !isOp(t[scheme.lo], "(") || module.partner(scheme.lo) !== scheme.hi - 1) return undefined;
  const [, fallback] = module.splitTopLevel(scheme.lo + 1, scheme.hi - 1);
  return fallback && { seq: module.seq, ...fallback };
}

/** `os.environ["X"]`: the subscript's key when `names` are the environment mapping. */
export function isEnvironMapping(names: readonly string[]): boolean {
  return ENVIRON_NAMES.has(names.join("."));
}

/** A reader: the `(` of the reader object's construction, or a function imported from a reader package. */
type Reader = { open: number } | "imported";

/** Whether a local name is a reader: imported from a reader package, or bound to a reader object. */
function readerOf(module: PyModule, name: string, offset: number): Reader | undefined {
  const assignment = module.resolve(name, offset);
  if (assignment) {
    const { lo, hi } = assignment.value;
    const open = module.callSpanning(assignment.value);
    const text = hi > lo ? module.text.slice(module.tokens[lo]!.start, module.tokens[hi - 1]!.end) : "";
    return open !== undefined && READER_CLASS.test(text) ? { open } : undefined;
  }
  let bindings = bindingsCache.get(module);
  if (!bindings) {
    bindings = importBindings(module);
    bindingsCache.set(module, bindings);
  }
  const binding = bindings.get(name);
  return binding !== undefined && READER_PACKAGES.has(binding.dotted) && binding.name !== undefined
    ? "imported"
    : undefined;
}

function isCall(e: Expr, arg: Expr): boolean {
  const last = arg.hi - 1;
  return isOp(e.seq.tokens[last], ")") && (e.seq.partner[last] ?? -1) > arg.lo;
}
