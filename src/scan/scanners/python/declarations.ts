/**
 * A declaration of the PyPI SDK in a Python manifest or lockfile, the same
 * shape whatever the format, and how each one is judged V1, V2 or review.
 */
import { judgePypiSpec, judgePypiVersion, type PypiJudgement } from "../../../knowledge/pypi-versions.js";

import type { PythonManifestKind } from "../../../lang/python/manifest-names.js";

export type { PythonManifestKind };

export interface PythonDeclaration {
  manifest: PythonManifestKind;
  /** Offsets in the file text of what names the package (the name, the key or the lock entry). */
  start: number;
  end: number;
  /** specifier: a range as written; locked: an exact version; reference: git, URL or path. */
  kind: "specifier" | "locked" | "reference";
  /** The specifier or locked version as written ("" when unpinned). */
  spec: string;
  /** Where in the manifest, e.g. "project.optional-dependencies.dev". */
  section?: string;
  extras?: string;
  marker?: string;
  reference?: string;
}

export interface DeclarationResult {
  declarations: PythonDeclaration[];
  /** The parser's complaint, with the 1-based line it points at. */
  error?: { message: string; line: number };
}

export function judgeDeclaration(declaration: PythonDeclaration): PypiJudgement {
  switch (declaration.kind) {
    case "locked":
      return judgePypiVersion(declaration.spec.replace(/^===?/, ""));
    case "reference":
      return {
        verdict: "review",
        reason: `installed from ${declaration.reference ?? "a direct reference"}, so its version cannot be read`,
      };
    case "specifier":
      return judgePypiSpec(declaration.spec);
  }
}

export function isLockfile(kind: PythonManifestKind): boolean {
  return kind === "pipfile-lock" || kind === "poetry-lock" || kind === "uv-lock";
}
