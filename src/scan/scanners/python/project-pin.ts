/**
 * The `comfydeploy` version a Python file runs with: the nearest manifests
 * or lockfiles (same directory, then parents) that declare the SDK decide.
 * A V1 declaration there wins, since that code path still exists. Where no
 * manifest declares it, a V1 release file the repository installs
 * (`comfydeploy-0.3.0-py3-none-any.whl` in an image build, a wheel list) does.
 */
import { posix } from "node:path";
import type { PypiVerdict } from "../../../knowledge/pypi-versions.js";
import type { RepoFacts } from "../../scanner.js";
import { judgeDeclaration, type PythonDeclaration } from "./declarations.js";
import { pythonManifestKindOf } from "../../../lang/python/manifest-names.js";
import { readPythonManifest } from "./manifests.js";
import { v1ReleaseFiles } from "./wheel-names.js";

export interface ProjectPin {
  verdict: PypiVerdict | "none";
  /** Where the deciding declaration is, as "path:line". */
  source?: string;
  /** Its specifier or locked version as written. */
  spec?: string;
  /** The pin is a release file the repository installs, not a manifest entry: fix cannot move it. */
  releaseFile?: true;
}

interface RepoPins {
  /** Manifest files by the directory whose code they govern. */
  manifestsByDir: Map<string, string[]>;
  pins: Map<string, ProjectPin>;
  /** The first V1 release file named in the repository, once looked for. */
  releaseFile?: ProjectPin | null;
}

const cache = new WeakMap<RepoFacts, RepoPins>();

export function projectPinFor(repo: RepoFacts, file: string): ProjectPin {
  const state = stateOf(repo);
  let dir = posix.dirname(file);
  const walked: string[] = [];
  let pin: ProjectPin | undefined;
  for (;;) {
    const known = state.pins.get(dir);
    if (known) {
      pin = known;
      break;
    }
    walked.push(dir);
    const found = pinOfDirectory(repo, state.manifestsByDir.get(dir) ?? []);
    if (found) {
      pin = found;
      break;
    }
    if (dir === ".") break;
    dir = posix.dirname(dir);
  }
  const result = pin ?? releaseFilePin(repo, state) ?? { verdict: "none" };
  for (const d of walked) state.pins.set(d, result);
  return result;
}

/** Prose files name releases without installing them. */
const PROSE = /\.(?:md|mdx|markdown|rst|adoc)$/i;

function releaseFilePin(repo: RepoFacts, state: RepoPins): ProjectPin | undefined {
  if (state.releaseFile === undefined) {
    state.releaseFile = null;
    for (const file of [...(repo.candidates ?? repo.files)].sort()) {
      if (PROSE.test(file)) continue;
      const text = repo.read(file);
      const found = text === undefined ? undefined : v1ReleaseFiles(text)[0];
      if (!found) continue;
      state.releaseFile = {
        verdict: "v1",
        releaseFile: true,
        source: `${file}:${text!.slice(0, found.start).split("\n").length}`,
        spec: `==${found.version}`,
      };
      break;
    }
  }
  return state.releaseFile ?? undefined;
}

function stateOf(repo: RepoFacts): RepoPins {
  let state = cache.get(repo);
  if (!state) {
    const manifestsByDir = new Map<string, string[]>();
    for (const file of repo.files) {
      if (!pythonManifestKindOf(file)) continue;
      let dir = posix.dirname(file);
      // requirements/base.txt belongs to the project above its folder.
      if (posix.basename(dir).toLowerCase() === "requirements") dir = posix.dirname(dir);
      manifestsByDir.set(dir, [...(manifestsByDir.get(dir) ?? []), file]);
    }
    state = { manifestsByDir, pins: new Map() };
    cache.set(repo, state);
  }
  return state;
}

function pinOfDirectory(repo: RepoFacts, manifests: readonly string[]): ProjectPin | undefined {
  const found: Array<{ file: string; text: string; declaration: PythonDeclaration; verdict: PypiVerdict }> = [];
  const queue = [...manifests];
  const visited = new Set<string>();
  const listed = new Set(repo.files);
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (visited.has(file)) continue;
    visited.add(file);
    const text = repo.read(file);
    const kind = pythonManifestKindOf(file) ?? "requirements";
    if (text === undefined) continue;
    const read = readPythonManifest(file, text, kind);
    for (const declaration of read.declarations)
      found.push({ file, text, declaration, verdict: judgeDeclaration(declaration).verdict });
    for (const include of read.includes) if (listed.has(include.file)) queue.push(include.file);
  }
  if (found.length === 0) return undefined;
  const decisive = found.find((f) => f.verdict === "v1") ?? found.find((f) => f.verdict === "v2") ?? found[0]!;
  const line = decisive.text.slice(0, decisive.declaration.start).split("\n").length;
  return { verdict: decisive.verdict, source: `${decisive.file}:${line}`, spec: decisive.declaration.spec };
}
