/**
 * Which files are Python manifests or lockfiles, and reading any of them
 * into SDK declarations. Requirement files may have any name when another
 * requirements file pulls them in with `-r` or `-c`.
 */
import type { RepoFacts } from "../../scanner.js";
import type { DeclarationResult, PythonManifestKind } from "./declarations.js";
import { readPipfileLock } from "./pipfile-lock.js";
import { isRequirementsFileName, pythonManifestKindOf } from "../../../lang/python/manifest-names.js";
import { readRequirementsFile, type RequirementsInclude } from "./requirements-file.js";
import { readSetupCfg, readSetupPy } from "./setup-files.js";
import { readPipfile, readPyproject, readTomlLock } from "./toml-manifests.js";

export interface ManifestRead extends DeclarationResult {
  includes: RequirementsInclude[];
}

export function readPythonManifest(file: string, text: string, kind: PythonManifestKind): ManifestRead {
  switch (kind) {
    case "requirements":
    case "constraints": {
      const result = readRequirementsFile(file, text, kind);
      return { declarations: result.declarations, includes: result.includes };
    }
    case "pyproject":
    case "poetry":
      return { ...readPyproject(text), includes: [] };
    case "pipfile":
      return { ...readPipfile(text), includes: [] };
    case "pipfile-lock":
      return { ...readPipfileLock(text), includes: [] };
    case "poetry-lock":
    case "uv-lock":
      return { ...readTomlLock(text, kind), includes: [] };
    case "setup-cfg":
      return { ...readSetupCfg(text), includes: [] };
    case "setup-py":
      return { ...readSetupPy(text), includes: [] };
  }
}

const includedCache = new WeakMap<RepoFacts, Map<string, "requirements" | "constraints">>();

/** Every file pulled in by `-r`/`-c` from a requirements file of the repository, transitively. */
export function includedRequirementFiles(repo: RepoFacts): ReadonlyMap<string, "requirements" | "constraints"> {
  const cached = includedCache.get(repo);
  if (cached) return cached;
  const included = new Map<string, "requirements" | "constraints">();
  const listed = new Set(repo.files);
  const queue: Array<{ file: string; kind: "requirements" | "constraints" }> = [];
  for (const file of repo.files) {
    const kind = isRequirementsFileName(file);
    if (kind) queue.push({ file, kind });
  }
  const visited = new Set<string>();
  while (queue.length > 0) {
    const { file, kind } = queue.shift()!;
    if (visited.has(file)) continue;
    visited.add(file);
    const text = repo.read(file);
    if (text === undefined) continue;
    for (const include of readRequirementsFile(file, text, kind).includes) {
      if (!listed.has(include.file)) continue;
      if (!isRequirementsFileName(include.file) && !included.has(include.file))
        included.set(include.file, include.kind);
      queue.push({ file: include.file, kind: include.kind });
    }
  }
  includedCache.set(repo, included);
  return included;
}

/** The kind of a file the dependency scanner should read, using the repository for `-r` targets. */
export function manifestKindInRepo(file: string, repo: RepoFacts): PythonManifestKind | undefined {
  return pythonManifestKindOf(file) ?? includedRequirementFiles(repo).get(file);
}
