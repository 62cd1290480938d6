/**
 * How a Python module names the SDK: its `comfydeploy` imports, the local
 * names of the client class and package, the client constructions (and which
 * of them use the V1-only auth option), and its run calls by shape. Read once
 * per module: the file being scanned and the modules its imports reach.
 */
import { PYTHON_SDK } from "../../../knowledge/migration.js";
import { PYTHON_SDK_SHAPES, type PythonRunCall, pythonRunCall } from "../../../knowledge/python-sdk-shapes.js";
import type { PyModule } from "../../../lang/python/module.js";
import type { PyRange } from "../../../lang/python/syntax.js";
import { isName, isOp } from "../../../lang/python/tokens.js";

const PACKAGE = PYTHON_SDK.packageName;
const CLIENT_CLASS = PYTHON_SDK_SHAPES.clientClass;
const V1_AUTH = PYTHON_SDK_SHAPES.authOption.v1;

export interface SdkImport {
  start: number;
  end: number;
  module: string;
}

export interface SdkImports {
  statements: SdkImport[];
  /** Local names of the client class (`from comfydeploy import ComfyDeploy as CD`). */
  classAliases: string[];
  /** Local names of the package module (`import comfydeploy as cd`). */
  moduleAliases: Set<string>;
}

export interface SdkNames {
  imports: SdkImports;
  /** The `(` of every client construction. */
  constructors: Set<number>;
  /** The `(` of the constructions that pass `bearer_auth`, in order. */
  v1Clients: number[];
}

const cache = new WeakMap<PyModule, SdkNames>();

export function sdkNames(module: PyModule): SdkNames {
  const cached = cache.get(module);
  if (cached) return cached;
  const t = module.tokens;
  const imports = sdkImports(module);
  const classNames = new Set(imports.classAliases);
  // An unqualified ComfyDeploy counts unless the file defines its own class of that name.
  const definesOwnClass = t.some((tok, i) => isName(tok, CLIENT_CLASS) && isName(t[i - 1], "class"));
  if (!definesOwnClass) classNames.add(CLIENT_CLASS);
  const isConstructor = (open: number): boolean => {
    const callee = module.calleeOf(open);
    if (!callee || callee.receiverCall !== undefined) return false;
    const s = callee.segments;
    if (s.length === 1) return classNames.has(s[0]!);
    return s.length === 2 && s[1] === CLIENT_CLASS && imports.moduleAliases.has(s[0]!);
  };
  const names: SdkNames = { imports, constructors: new Set(), v1Clients: [] };
  for (let open = 0; open < t.length; open++) {
    if (!isOp(t[open], "(") || !isConstructor(open)) continue;
    names.constructors.add(open);
    const close = module.partner(open);
    for (let i = open + 1; i < close; i++) {
      if (isName(t[i], V1_AUTH) && isOp(t[i + 1], "=")) {
        names.v1Clients.push(open);
        break;
      }
    }
  }
  cache.set(module, names);
  return names;
}

/** The run call (`<x>.run.get(`) at `open`, by its shape. */
export function runCallAt(module: PyModule, open: number): PythonRunCall | undefined {
  if (open < 0) return undefined;
  const callee = module.calleeOf(open);
  if (!callee) return undefined;
  const s = callee.segments;
  return s[s.length - 2] === "run" ? pythonRunCall(`run.${s[s.length - 1]!}`) : undefined;
}

function sdkImports(module: PyModule): SdkImports {
  const t = module.tokens;
  const out: SdkImports = { statements: [], classAliases: [], moduleAliases: new Set() };
  for (const line of module.lines) {
    const first = t[line.lo]!;
    const span = { start: first.start, end: t[line.hi - 1]!.end };
    if (isName(first, "from")) {
      const { name, next } = dottedName(module, line.lo + 1, line.hi);
      if (name.split(".")[0] !== PACKAGE || !isName(t[next], "import")) continue;
      out.statements.push({ ...span, module: name });
      if (name !== PACKAGE) continue;
      for (const item of module.splitTopLevel(next + 1, line.hi)) {
        let lo = item.lo;
        let hi = item.hi;
        if (isOp(t[lo], "(")) {
          for (const inner of module.splitTopLevel(lo + 1, module.partner(lo))) addImported(module, inner, out);
          continue;
        }
        if (isOp(t[hi - 1], ")")) hi--;
        if (isOp(t[lo], ")")) lo++;
        addImported(module, { lo, hi }, out);
      }
    } else if (isName(first, "import")) {
      for (const item of module.splitTopLevel(line.lo + 1, line.hi)) {
        const { name, next } = dottedName(module, item.lo, item.hi);
        if (name.split(".")[0] !== PACKAGE) continue;
        out.statements.push({ ...span, module: name });
        if (isName(t[next], "as") && t[next + 1]?.kind === "name") out.moduleAliases.add(t[next + 1]!.value);
        else out.moduleAliases.add(PACKAGE);
      }
    }
  }
  return out;
}

function addImported(module: PyModule, range: PyRange, out: SdkImports): void {
  const t = module.tokens;
  if (!isName(t[range.lo], CLIENT_CLASS)) return;
  const alias =
    isName(t[range.lo + 1], "as") && t[range.lo + 2]?.kind === "name" ? t[range.lo + 2]!.value : CLIENT_CLASS;
  out.classAliases.push(alias);
}

function dottedName(module: PyModule, lo: number, hi: number): { name: string; next: number } {
  const t = module.tokens;
  const parts: string[] = [];
  let i = lo;
  while (i < hi && t[i]?.kind === "name") {
    parts.push(t[i]!.value);
    if (!isOp(t[i + 1], ".")) {
      i++;
      break;
    }
    i += 2;
  }
  return { name: parts.join("."), next: i };
}
