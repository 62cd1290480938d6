/**
 * Which files are Python manifests or lockfiles, by name alone. The Python
 * dependency scanner and the sdk-dependency transform both decide with it.
 */
import { posix } from "node:path";

export type PythonManifestKind =
  | "requirements"
  | "constraints"
  | "pyproject"
  | "poetry"
  | "pipfile"
  | "pipfile-lock"
  | "poetry-lock"
  | "uv-lock"
  | "setup-cfg"
  | "setup-py";

const BY_NAME: Record<string, PythonManifestKind> = {
  "pyproject.toml": "pyproject",
  pipfile: "pipfile",
  "pipfile.lock": "pipfile-lock",
  "poetry.lock": "poetry-lock",
  "uv.lock": "uv-lock",
  "setup.cfg": "setup-cfg",
  "setup.py": "setup-py",
};

/** Requirement-like names: requirements*.txt, dev-requirements.in, requirements/base.txt, constraints*.txt. */
export function isRequirementsFileName(file: string): "requirements" | "constraints" | undefined {
  const base = posix.basename(file).toLowerCase();
  if (!/\.(txt|in)$/.test(base)) return undefined;
  if (/^constraints?\b.*\.txt$/.test(base)) return "constraints";
  if (base.includes("requirements")) return "requirements";
  if (posix.basename(posix.dirname(file)).toLowerCase() === "requirements") return "requirements";
  return undefined;
}

/** The manifest kind a file name alone tells. */
export function pythonManifestKindOf(file: string): PythonManifestKind | undefined {
  const base = posix.basename(file);
  return BY_NAME[base.toLowerCase()] ?? isRequirementsFileName(file);
}

/** Files that could be requirement files under another name (a `-r` target): checked against the repository. */
export function mayBeIncludedRequirements(file: string): boolean {
  return /\.(txt|in)$/i.test(file);
}
