/**
 * The classes of a Python module as the value resolver reads them: name,
 * base classes, body extent, the attributes the body declares (`base_url:
 * str = "…"`, dataclass fields, pydantic settings) and the methods it defines.
 */
import type { PyDef, PyModule } from "./module.js";
import type { PyRange } from "./syntax.js";
import { isName, isOp } from "./tokens.js";

export interface PyClass {
  name: string;
  /** Base classes as written, dotted (`requests.Session`). */
  bases: string[];
  indent: number;
  /** Offsets: the `class` keyword, and the end of the body. */
  start: number;
  end: number;
}

const cache = new WeakMap<PyModule, PyClass[]>();

export function classesOf(module: PyModule): PyClass[] {
  const cached = cache.get(module);
  if (cached) return cached;
  const t = module.tokens;
  const out: PyClass[] = [];
  module.lines.forEach((line, index) => {
    if (!isName(t[line.lo], "class") || !isName(t[line.lo + 1])) return;
    const indent = indentOf(module, t[line.lo]!.start);
    let end = module.text.length;
    for (const next of module.lines.slice(index + 1)) {
      if (indentOf(module, t[next.lo]!.start) <= indent) {
        end = t[next.lo]!.start;
        break;
      }
    }
    const bases: string[] = [];
    const open = line.lo + 2;
    if (isOp(t[open], "(") && module.partner(open) > open) {
      for (const part of module.splitTopLevel(open + 1, module.partner(open))) {
        const text = module.text.slice(t[part.lo]!.start, t[part.hi - 1]!.end);
        if (/^[A-Za-z_][\w.]*$/.test(text)) bases.push(text);
      }
    }
    out.push({ name: t[line.lo + 1]!.value, bases, indent, start: t[line.lo]!.start, end });
  });
  cache.set(module, out);
  return out;
}

/** The innermost class whose body holds the offset. */
export function classAt(module: PyModule, offset: number): PyClass | undefined {
  let found: PyClass | undefined;
  for (const cls of classesOf(module))
    if (cls.start < offset && offset < cls.end && (!found || cls.indent > found.indent)) found = cls;
  return found;
}

export function classNamed(module: PyModule, name: string): PyClass | undefined {
  const found = classesOf(module).filter((cls) => cls.name === name);
  return found.length === 1 ? found[0] : undefined;
}

/** Lines directly in the class body (one indent deeper than the class). */
function bodyLines(module: PyModule, cls: PyClass): PyRange[] {
  const t = module.tokens;
  let indent: number | undefined;
  const out: PyRange[] = [];
  for (const line of module.lines) {
    const start = t[line.lo]!.start;
    if (start <= cls.start || start >= cls.end) continue;
    const own = indentOf(module, start);
    indent ??= own;
    if (own === indent) out.push(line);
  }
  return out;
}

/** What the class body says of an attribute: its value (`name = v`, `name: T = v`) and its declared type (`name: T`). */
export function classAttribute(
  module: PyModule,
  cls: PyClass,
  name: string,
): { value?: PyRange; type?: string } | undefined {
  const t = module.tokens;
  const line = attributeLine(module, cls, name);
  if (line) {
    if (isOp(t[line.lo + 1], "=")) return { value: { lo: line.lo + 2, hi: line.hi } };
    const equals = module.findTopLevel(line.lo + 2, line.hi, (tok) => isOp(tok, "="));
    const typeEnd = equals >= 0 ? equals : line.hi;
    const type = module.text.slice(t[line.lo + 2]!.start, t[typeEnd - 1]!.end);
    // `field(default=…)` keeps the default apart.
    const value = equals >= 0 ? defaultOf(module, { lo: equals + 1, hi: line.hi }) : undefined;
    return { ...(value ? { value } : {}), ...(/^[A-Za-z_][\w.]*$/.test(type) ? { type } : {}) };
  }
  return undefined;
}

/** The class body's line declaring an attribute (`name = v`, `name: T = v`, `name: T`). */
export function attributeLine(module: PyModule, cls: PyClass, name: string): PyRange | undefined {
  const t = module.tokens;
  return bodyLines(module, cls).find(
    (line) => isName(t[line.lo], name) && (isOp(t[line.lo + 1], "=") || isOp(t[line.lo + 1], ":")),
  );
}

/** `field(default="…")` (dataclasses) and `Field("…")` / `Field(default="…")` (pydantic) → the default; any other value as it is. */
function defaultOf(module: PyModule, range: PyRange): PyRange | undefined {
  const t = module.tokens;
  const open = range.lo + 1;
  if (!isOp(t[open], "(") || module.partner(open) !== range.hi - 1) return range;
  if (isName(t[range.lo], "field")) return module.callArguments(open).keyword.get("default");
  if (!isName(t[range.lo], "Field")) return range;
  const args = module.callArguments(open);
  const first = args.positional[0];
  // `Field(...)`: required, no default.
  return args.keyword.get("default") ?? (first && !isOp(t[first.lo], "...") ? first : undefined);
}

/** The method `name` defined in the class body. */
export function methodNamed(module: PyModule, cls: PyClass, name: string): PyDef | undefined {
  for (const def of module.defs.values())
    if (def.name === name && def.start > cls.start && def.start < cls.end && classAt(module, def.start) === cls)
      return def;
  return undefined;
}

function indentOf(module: PyModule, offset: number): number {
  return offset - (module.text.lastIndexOf("\n", offset - 1) + 1);
}
