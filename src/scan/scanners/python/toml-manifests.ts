/**
 * TOML manifests and lockfiles, read with smol-toml: pyproject.toml (PEP 621,
 * PEP 735 groups, Poetry, uv, PDM), Pipfile, poetry.lock and uv.lock. The
 * parser gives no positions, so each declaration is placed by finding its
 * text (the requirement string, the key, the lock entry's name) in order.
 */
import { parse } from "smol-toml";
import type { DeclarationResult, PythonDeclaration, PythonManifestKind } from "./declarations.js";
import { isPythonSdkName, parseRequirement } from "./requirement.js";
import { fromRequirement } from "./requirements-file.js";

type Table = Record<string, unknown>;

export function readPyproject(text: string): DeclarationResult {
  const doc = parseToml(text);
  if ("error" in doc) return { declarations: [], error: doc.error };
  const reader = new TomlDeclarations(text);
  const project = table(doc.table.project);
  reader.requirementArray(project?.dependencies, "pyproject", "project.dependencies");
  for (const [group, list] of entries(project?.["optional-dependencies"])) {
    reader.requirementArray(list, "pyproject", `project.optional-dependencies.${group}`);
  }
  for (const [group, list] of entries(doc.table["dependency-groups"])) {
    reader.requirementArray(list, "pyproject", `dependency-groups.${group}`);
  }
  const tool = table(doc.table.tool);
  const uv = table(tool?.uv);
  for (const key of ["dev-dependencies", "constraint-dependencies", "override-dependencies"]) {
    reader.requirementArray(uv?.[key], "pyproject", `tool.uv.${key}`);
  }
  for (const [group, list] of entries(table(tool?.pdm)?.["dev-dependencies"])) {
    reader.requirementArray(list, "pyproject", `tool.pdm.dev-dependencies.${group}`);
  }
  const poetry = table(tool?.poetry);
  reader.packageTable(poetry?.dependencies, "poetry", "tool.poetry.dependencies");
  reader.packageTable(poetry?.["dev-dependencies"], "poetry", "tool.poetry.dev-dependencies");
  for (const [group, body] of entries(poetry?.group)) {
    reader.packageTable(table(body)?.dependencies, "poetry", `tool.poetry.group.${group}.dependencies`);
  }
  return { declarations: reader.declarations };
}

/** Pipfile categories are the top-level tables other than these. */
const PIPFILE_NON_PACKAGE_TABLES = new Set(["source", "requires", "scripts", "pipenv"]);

export function readPipfile(text: string): DeclarationResult {
  const doc = parseToml(text);
  if ("error" in doc) return { declarations: [], error: doc.error };
  const reader = new TomlDeclarations(text);
  for (const [category, body] of Object.entries(doc.table)) {
    if (PIPFILE_NON_PACKAGE_TABLES.has(category)) continue;
    reader.packageTable(body, "pipfile", category);
  }
  return { declarations: reader.declarations };
}

/** poetry.lock and uv.lock: `[[package]]` entries with an exact version. */
export function readTomlLock(text: string, manifest: "poetry-lock" | "uv-lock"): DeclarationResult {
  const doc = parseToml(text);
  if ("error" in doc) return { declarations: [], error: doc.error };
  const reader = new TomlDeclarations(text);
  const packages = Array.isArray(doc.table.package) ? doc.table.package : [];
  for (const entry of packages) {
    const pkg = table(entry);
    if (!pkg || typeof pkg.name !== "string" || !isPythonSdkName(pkg.name)) continue;
    // uv lists the project itself as an editable or virtual package: not an installed release.
    const source = table(pkg.source);
    if (source && ("editable" in source || "virtual" in source)) continue;
    const anchor = reader.anchors.next(LOCK_NAME);
    const version = typeof pkg.version === "string" ? pkg.version : "";
    const declaration: PythonDeclaration = {
      manifest,
      start: anchor?.start ?? 0,
      end: anchor?.end ?? 0,
      kind: version ? "locked" : "reference",
      spec: version,
      section: "package",
    };
    const reference = source && (source.git ?? source.url ?? source.path);
    if (typeof reference === "string") declaration.reference = reference;
    reader.declarations.push(declaration);
  }
  return { declarations: reader.declarations };
}

function parseToml(text: string): { table: Table } | { error: { message: string; line: number } } {
  try {
    return { table: parse(text) as Table };
  } catch (error) {
    const e = error as { message?: string; line?: number };
    const line = typeof e.line === "number" ? e.line : 1;
    const message = (e.message ?? String(error)).split("\n")[0]!;
    return { error: { message: `${message} at line ${line}`, line } };
  }
}

function table(value: unknown): Table | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date)
    ? (value as Table)
    : undefined;
}

function entries(value: unknown): Array<[string, unknown]> {
  const t = table(value);
  return t ? Object.entries(t) : [];
}

// Where a declaration sits in the text. Names compare case-insensitively and must not run on into a longer name.
const NAME_END = "(?![A-Za-z0-9]|[-_.][A-Za-z0-9])";
const REQUIREMENT_STRING = new RegExp(`(["'])[ \\t]*(comfydeploy)${NAME_END}`, "gid");
const PACKAGE_KEY = /(?:^|[\s{,.])(["']?)(comfydeploy)\1[ \t]*=(?!=)/dgim;
const PACKAGE_HEADER = /^[ \t]*\[[^\]\n]*\.(["']?)(comfydeploy)\1[ \t]*\]/dgim;
const LOCK_NAME = /^[ \t]*name[ \t]*=[ \t]*(["'])(comfydeploy)\1/dgim;

/** Hands out matches of a pattern in document order, each once, skipping comments. */
class AnchorFinder {
  private readonly used = new Set<number>();

  constructor(private readonly text: string) {}

  /** The first unused match (group 2 is the name) that `prefer` accepts, else the first unused one. */
  next(
    pattern: RegExp,
    prefer?: (matchStart: number, lineText: string) => boolean,
  ): { start: number; end: number } | undefined {
    const candidates: Array<{ start: number; end: number; matchStart: number; line: string }> = [];
    pattern.lastIndex = 0;
    for (const m of this.text.matchAll(pattern)) {
      const [start, end] = m.indices![2]!;
      if (this.used.has(start)) continue;
      const lineStart = this.text.lastIndexOf("\n", start - 1) + 1;
      const lineEnd = this.text.indexOf("\n", start);
      const line = this.text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
      if (inComment(line, start - lineStart)) continue;
      candidates.push({ start, end, matchStart: m.index!, line });
    }
    const chosen = candidates.find((c) => prefer?.(c.matchStart, c.line)) ?? candidates[0];
    if (!chosen) return undefined;
    this.used.add(chosen.start);
    return { start: chosen.start, end: chosen.end };
  }
}

/** True when a `#` outside quotes comes before `column` on the line. */
function inComment(line: string, column: number): boolean {
  let quote: string | undefined;
  for (let i = 0; i < column; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#") return true;
  }
  return false;
}

class TomlDeclarations {
  readonly declarations: PythonDeclaration[] = [];
  readonly anchors: AnchorFinder;

  constructor(private readonly text: string) {
    this.anchors = new AnchorFinder(text);
  }

  /** An array of PEP 508 strings (PEP 735 `{include-group}` tables are skipped). */
  requirementArray(value: unknown, manifest: PythonManifestKind, section: string): void {
    if (!Array.isArray(value)) return;
    for (const item of value) {
      if (typeof item !== "string") continue;
      const requirement = parseRequirement(item);
      if (!requirement || !isPythonSdkName(requirement.name)) continue;
      const anchor = this.anchors.next(REQUIREMENT_STRING, (at) => this.text.startsWith(item, at + 1));
      const nameStart = anchor?.start ?? requirement.nameStart;
      this.declarations.push(fromRequirement(requirement, manifest, nameStart - requirement.nameStart, section));
    }
  }

  /** Poetry and Pipfile tables: `name = "spec"` or `name = { version = "...", ... }` (or a list of those). */
  packageTable(value: unknown, manifest: PythonManifestKind, section: string): void {
    for (const [name, spec] of entries(value)) {
      if (!isPythonSdkName(name)) continue;
      const written = describeSpec(spec);
      const prefer = (_at: number, line: string): boolean => written.spec !== "" && line.includes(written.spec);
      const anchor = this.anchors.next(PACKAGE_KEY, prefer) ?? this.anchors.next(PACKAGE_HEADER);
      const declaration: PythonDeclaration = {
        manifest,
        start: anchor?.start ?? 0,
        end: anchor?.end ?? 0,
        ...written,
        section,
      };
      this.declarations.push(declaration);
    }
  }
}

/** What a Poetry or Pipfile dependency value says. */
function describeSpec(value: unknown): Pick<PythonDeclaration, "kind" | "spec" | "extras" | "marker" | "reference"> {
  if (typeof value === "string") return { kind: "specifier", spec: value.trim() };
  if (Array.isArray(value)) {
    // Poetry's multiple-constraint form: one entry per environment, any of which may apply.
    const parts = value.map(describeSpec);
    const reference = parts.find((p) => p.kind === "reference");
    if (reference) return reference;
    return { kind: "specifier", spec: parts.map((p) => p.spec || "*").join(" || ") };
  }
  const t = table(value);
  if (!t) return { kind: "specifier", spec: "" };
  const out: Pick<PythonDeclaration, "kind" | "spec" | "extras" | "marker" | "reference"> = {
    kind: "specifier",
    spec: "",
  };
  if (Array.isArray(t.extras)) out.extras = t.extras.join(",");
  if (typeof t.markers === "string") out.marker = t.markers;
  if (typeof t.version === "string") {
    out.spec = t.version.trim();
    return out;
  }
  const reference = t.git ?? t.url ?? t.path ?? t.file;
  if (typeof reference === "string") {
    const ref = t.tag ?? t.rev ?? t.branch ?? t.ref;
    return { ...out, kind: "reference", reference: typeof ref === "string" ? `${reference}@${ref}` : reference };
  }
  return out;
}
