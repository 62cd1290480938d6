/**
 * What a Python module's import statements bind, and which file of the
 * repository a dotted module name is: enough to follow a name into the
 * module it comes from (relative and absolute imports, source roots such
 * as `src/`).
 */
import { posix } from "node:path";
import { isName, isOp } from "./tokens.js";
import type { PySyntax } from "./syntax.js";

/** What a local name is bound to: a module (`import a.b as m`), or a name in one (`from a import b`). */
export interface PyImportBinding {
  dotted: string;
  name?: string;
}

/** The repository file a dotted module name (`vendor.comfydeploy_client`, `..config`) names, from the importing file or a root above it. */
export function moduleFile(
  dotted: string,
  importer: string,
  files: readonly string[] | ReadonlySet<string>,
): string | undefined {
  const relative = dotted.replace(/^\.+/, "");
  const dots = dotted.length - relative.length;
  const path = relative.split(".").filter(Boolean).join("/");
  const candidates: string[] = [];
  if (dots > 0) {
    let dir = posix.dirname(importer);
    for (let i = 1; i < dots; i++) dir = posix.dirname(dir);
    candidates.push(path === "" ? dir : posix.join(dir, path));
  } else {
    // Absolute imports from the repository root or from any source root above the importer (`src/`).
    for (let dir = posix.dirname(importer); ; dir = posix.dirname(dir)) {
      candidates.push(dir === "." ? path : `${dir}/${path}`);
      if (dir === "." || dir === "/") break;
    }
  }
  const set = files instanceof Set ? (files as ReadonlySet<string>) : new Set(files);
  for (const candidate of candidates) {
    const files =
      candidate === "." || candidate === "" ? ["__init__.py"] : [`${candidate}.py`, `${candidate}/__init__.py`];
    for (const file of files) if (set.has(file)) return file;
  }
  return undefined;
}

/** Every name the module's `import` and `from … import` statements bind, by local name (the last binding wins). */
export function importBindings(module: PySyntax): Map<string, PyImportBinding> {
  const t = module.tokens;
  const out = new Map<string, PyImportBinding>();
  for (const line of module.lines) {
    const first = t[line.lo];
    if (isName(first, "import")) {
      for (const item of module.splitTopLevel(line.lo + 1, line.hi)) {
        const as = module.findTopLevel(item.lo, item.hi, (tok) => isName(tok, "as"));
        const dotted = joined(module, item.lo, as >= 0 ? as : item.hi);
        // `import a.b` binds `a`; `import a.b as m` binds `m` to `a.b`.
        if (as >= 0 && isName(t[as + 1])) out.set(t[as + 1]!.value, { dotted });
        else if (dotted) out.set(dotted.split(".")[0]!, { dotted: dotted.split(".")[0]! });
      }
    } else if (isName(first, "from")) {
      let i = line.lo + 1;
      let dotted = "";
      while (i < line.hi && !isName(t[i], "import")) dotted += t[i++]!.value;
      for (let k = i + 1; k < line.hi; k++) {
        if (!isName(t[k]) || isName(t[k], "as") || isName(t[k - 1], "as")) continue;
        const local = isName(t[k + 1], "as") && isName(t[k + 2]) ? t[k + 2]!.value : t[k]!.value;
        out.set(local, { dotted, name: t[k]!.value });
      }
    }
  }
  return out;
}

function joined(module: PySyntax, lo: number, hi: number): string {
  let out = "";
  for (let i = lo; i < hi; i++) {
    const token = module.tokens[i]!;
    if (!isName(token) && !isOp(token, ".")) return "";
    out += token.value;
  }
  return out;
}

/** The modules a module star-imports (`from .base import *`, as split Django settings do), in order. */
export function starImports(module: PySyntax): string[] {
  const t = module.tokens;
  const out: string[] = [];
  for (const line of module.lines) {
    if (!isName(t[line.lo], "from") || !isOp(t[line.hi - 1], "*") || !isName(t[line.hi - 2], "import")) continue;
    let dotted = "";
    for (let i = line.lo + 1; i < line.hi - 2; i++) dotted += t[i]!.value;
    out.push(dotted);
  }
  return out;
}
