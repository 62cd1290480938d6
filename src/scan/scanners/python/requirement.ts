/**
 * PEP 508 requirement strings (`comfydeploy[extra]>=0.4,<0.5 ; python_version >= "3.9"`)
 * and the PyPI name rules used to decide whether one names the SDK.
 */
import { PYTHON_SDK } from "../../../knowledge/migration.js";

export interface Requirement {
  name: string;
  /** Offsets of the name inside the parsed text. */
  nameStart: number;
  nameEnd: number;
  /** Extras as written inside the brackets. */
  extras?: string;
  /** The version specifier without parentheses; "" when there is none. */
  spec: string;
  /** A direct reference (`name @ url`). */
  url?: string;
  marker?: string;
}

const NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?/;

/** PEP 503 normalisation: case-insensitive, runs of `-`, `_`, `.` are one `-`. */
export function normalizePackageName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

export function isPythonSdkName(name: string): boolean {
  return normalizePackageName(name) === PYTHON_SDK.packageName;
}

export function parseRequirement(text: string): Requirement | undefined {
  const lead = text.length - text.trimStart().length;
  const name = NAME.exec(text.slice(lead));
  if (!name) return undefined;
  const requirement: Requirement = { name: name[0], nameStart: lead, nameEnd: lead + name[0].length, spec: "" };
  let rest = text.slice(requirement.nameEnd);
  const extras = /^\s*\[([^\]]*)\]/.exec(rest);
  if (extras) {
    requirement.extras = extras[1]!.trim();
    rest = rest.slice(extras[0].length);
  }
  const direct = /^\s*@\s*(\S+)(.*)$/s.exec(rest);
  if (direct) {
    requirement.url = direct[1]!.replace(/;$/, "");
    const marker = /^\s*;(.*)$/s.exec(direct[2]!);
    if (marker) requirement.marker = marker[1]!.trim();
    else if (direct[2]!.trim() !== "") return undefined;
    return requirement;
  }
  const semicolon = rest.indexOf(";");
  const specText = (semicolon < 0 ? rest : rest.slice(0, semicolon)).trim();
  if (semicolon >= 0) requirement.marker = rest.slice(semicolon + 1).trim();
  // Anything else after a name (a stray word, a second name) is not a requirement.
  if (specText !== "" && !/^[(<>=!~^*\d]/.test(specText)) return undefined;
  requirement.spec = specText.replace(/^\((.*)\)$/s, "$1").trim();
  return requirement;
}

const MARKER_VARIABLES =
  /^\s*(?:\(|["']|python_version|python_full_version|os_name|os\.name|sys_platform|sys\.platform|platform_release|platform_system|platform_version|platform_machine|platform_python_implementation|platform\.python_implementation|implementation_name|implementation_version|extra)\b/;

/**
 * Splits a `;`-separated list of requirements (setup.cfg's list-semi) while
 * keeping environment markers, which also follow a `;`, with their requirement.
 */
export function splitRequirementList(text: string): Array<{ text: string; offset: number }> {
  const parts: Array<{ text: string; offset: number }> = [];
  let offset = 0;
  for (const piece of text.split(";")) {
    const last = parts[parts.length - 1];
    if (last && MARKER_VARIABLES.test(piece)) last.text += `;${piece}`;
    else parts.push({ text: piece, offset });
    offset += piece.length + 1;
  }
  return parts.filter((p) => p.text.trim() !== "");
}

/** The SDK's version from a wheel or sdist file name in a URL or path (`comfydeploy-0.4.1-py3-none-any.whl`). */
export function sdkVersionFromArchive(url: string): string | undefined {
  const file = url.split(/[?#]/)[0]!.split("/").pop() ?? "";
  const m = /^([A-Za-z0-9._]+?)-(\d[A-Za-z0-9.!+]*)(?:-[^/]*\.whl|\.tar\.gz|\.tar\.bz2|\.zip)$/i.exec(file);
  return m && isPythonSdkName(m[1]!) ? m[2] : undefined;
}

/** The project a VCS or archive URL installs, from its `#egg=` fragment. */
export function eggName(url: string): string | undefined {
  const m = /[#&]egg=([A-Za-z0-9._-]+)/.exec(url);
  return m?.[1];
}
