/**
 * pip requirements and constraints files: one requirement per logical line,
 * `\` continuations, `#` comments, per-requirement options (`--hash=...`),
 * editable and URL lines, and `-r`/`-c` references to other files.
 * pip's format has no JS parser, so this follows pip's own line rules.
 */
import { posix } from "node:path";
import type { PythonDeclaration } from "./declarations.js";
import { eggName, isPythonSdkName, parseRequirement, type Requirement, sdkVersionFromArchive } from "./requirement.js";

export interface RequirementsInclude {
  kind: "requirements" | "constraints";
  /** Repository-relative path of the referenced file. */
  file: string;
}

export interface RequirementsFileResult {
  declarations: PythonDeclaration[];
  includes: RequirementsInclude[];
}

interface LogicalLine {
  text: string;
  /** Offset of the logical line's first character in the file. */
  offset: number;
}

/** Physical lines joined at trailing backslashes, as pip reads them. */
function logicalLines(text: string): LogicalLine[] {
  const out: LogicalLine[] = [];
  let pending: LogicalLine | undefined;
  let offset = 0;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\r$/, "");
    const start = offset;
    offset += raw.length + 1;
    const continues = line.endsWith("\\") && !/^\s*#/.test(line);
    const body = continues ? line.slice(0, -1) : line;
    if (pending) pending.text += ` ${body}`;
    else pending = { text: body, offset: start };
    if (!continues) {
      out.push(pending);
      pending = undefined;
    }
  }
  if (pending) out.push(pending);
  return out;
}

const INCLUDE_OPTION = /^(-r|--requirement|-c|--constraint)(?:\s*=\s*|\s+|(?<=^-[rc]))(\S+)/;
const EDITABLE_OPTION = /^(?:-e|--editable)(?:\s*=\s*|\s+)(\S+)/;

export function readRequirementsFile(
  file: string,
  text: string,
  kind: "requirements" | "constraints",
): RequirementsFileResult {
  const declarations: PythonDeclaration[] = [];
  const includes: RequirementsInclude[] = [];
  const manifest = kind;
  for (const line of logicalLines(text)) {
    // pip strips a comment that starts the line or follows whitespace.
    const content = line.text.replace(/(^|\s)#.*$/, "").trimEnd();
    const lead = content.length - content.trimStart().length;
    const body = content.trim();
    if (body === "") continue;
    const start = line.offset + lead;
    if (body.startsWith("-")) {
      const include = INCLUDE_OPTION.exec(body);
      if (include) {
        const target = posix.normalize(posix.join(posix.dirname(file), include[2]!));
        includes.push({ kind: /^(-c|--constraint)$/.test(include[1]!) ? "constraints" : "requirements", file: target });
        continue;
      }
      const editable = EDITABLE_OPTION.exec(body);
      if (editable && isPythonSdkName(eggName(editable[1]!) ?? "")) {
        declarations.push({
          manifest,
          start,
          end: start + body.length,
          kind: "reference",
          spec: "",
          reference: editable[1]!,
        });
      }
      continue;
    }
    // Per-requirement options (--hash, --config-settings) follow the requirement.
    const requirementText = body.replace(/\s+--?[A-Za-z].*$/s, "");
    if (
      /^(\.{0,2}\/|[a-z][a-z0-9+.-]*:\/\/|[a-z]+\+[a-z]+:)/i.test(requirementText) ||
      /\.(whl|tar\.gz|zip)$/i.test(requirementText)
    ) {
      const declaration = archiveDeclaration(requirementText, manifest, start);
      if (declaration) declarations.push(declaration);
      continue;
    }
    const requirement = parseRequirement(requirementText);
    if (!requirement || !isPythonSdkName(requirement.name)) continue;
    declarations.push(fromRequirement(requirement, manifest, start));
  }
  return { declarations, includes };
}

/** A declaration for a parsed requirement whose text starts at `offset` in the file. */
export function fromRequirement(
  requirement: Requirement,
  manifest: PythonDeclaration["manifest"],
  offset: number,
  section?: string,
): PythonDeclaration {
  const declaration: PythonDeclaration = {
    manifest,
    start: offset + requirement.nameStart,
    end: offset + requirement.nameEnd,
    kind: "specifier",
    spec: requirement.spec,
  };
  if (section) declaration.section = section;
  if (requirement.extras) declaration.extras = requirement.extras;
  if (requirement.marker) declaration.marker = requirement.marker;
  if (requirement.url) {
    const version = sdkVersionFromArchive(requirement.url);
    declaration.reference = requirement.url;
    if (version) declaration.spec = `==${version}`;
    else declaration.kind = "reference";
  }
  return declaration;
}

/** A bare URL or path line: the SDK only when its file name or egg fragment says so. */
function archiveDeclaration(
  text: string,
  manifest: PythonDeclaration["manifest"],
  offset: number,
): PythonDeclaration | undefined {
  const reference = text.split(/\s*;/)[0]!;
  const version = sdkVersionFromArchive(reference);
  const end = offset + reference.length;
  if (version) return { manifest, start: offset, end, kind: "specifier", spec: `==${version}`, reference };
  if (isPythonSdkName(eggName(reference) ?? ""))
    return { manifest, start: offset, end, kind: "reference", spec: "", reference };
  return undefined;
}
