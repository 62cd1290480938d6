/**
 * `v1-sdk-dependency` for wheel and sdist file names of the V1 Python SDK
 * (`comfydeploy-0.4.1-py3-none-any.whl`, `comfydeploy-0.0.3.tar.gz`) wherever
 * they are written outside the Python manifests: plugin manifests, JSON and
 * YAML lists, install scripts, Dockerfiles, URLs. The file name says the
 * version, so no specifier is needed. Manifests the dependency scanner reads
 * (requirements, pyproject.toml, lockfiles, …) are left to it.
 */
import { judgePypiVersion } from "../../../knowledge/pypi-versions.js";
import type { Finding } from "../../../core/finding.js";
import type { FileScanInput, FileScanner } from "../../scanner.js";
import { FindingSink } from "../../scanner-helpers.js";
import { manifestKindInRepo } from "./manifests.js";
import { pypiReleaseFileMessage } from "./messages.js";
import { sdkVersionFromArchive } from "./requirement.js";

/** A distribution file name: project, version, optional wheel tags, archive extension; not part of a longer name. */
const ARCHIVE_NAME = /(?<![\w.-])[A-Za-z0-9._]+-\d[\w.!+]*(?:-[\w.]+)*?\.(?:whl|tar\.gz|tar\.bz2|zip)(?![\w.-])/g;
/** Cheap gate before the regex: the project's name in any of the spellings pip normalises. */
const MENTIONS_SDK = /comfy[-_.]?deploy-\d/i;

export const pythonWheelNameScanner: FileScanner = {
  id: "python-wheel-names",
  matches: () => true,
  scan: scanWheelNames,
};

export function scanWheelNames({ file, text, repo }: Pick<FileScanInput, "file" | "text" | "repo">): Finding[] {
  if (!MENTIONS_SDK.test(text) || manifestKindInRepo(file, repo) !== undefined) return [];
  const sink = new FindingSink(file, text);
  for (const found of v1ReleaseFiles(text)) {
    sink.atOffset(found.start, found.end, {
      ruleId: "v1-sdk-dependency",
      message: pypiReleaseFileMessage(found.name, found.version),
      // The file must be replaced by a V2 release file, not renamed: a person does that.
      fix: "manual",
      facts: {
        kind: "pypi-dependency",
        verdict: "v1",
        spec: `==${found.version}`,
        reason: found.reason,
        manifest: "release-file",
        reference: found.name,
        lockfile: false,
      },
    });
  }
  return sink.findings;
}

/** Release file names of V1 versions of the SDK in a text, with their offsets. */
export function v1ReleaseFiles(
  text: string,
): Array<{ name: string; version: string; reason: string; start: number; end: number }> {
  if (!MENTIONS_SDK.test(text)) return [];
  const out: Array<{ name: string; version: string; reason: string; start: number; end: number }> = [];
  for (const match of text.matchAll(ARCHIVE_NAME)) {
    const version = sdkVersionFromArchive(match[0]);
    const judgement = version ? judgePypiVersion(version) : undefined;
    if (!version || judgement?.verdict !== "v1") continue;
    out.push({
      name: match[0],
      version,
      reason: judgement.reason,
      start: match.index,
      end: match.index + match[0].length,
    });
  }
  return out;
}
