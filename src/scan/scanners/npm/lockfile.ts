/**
 * What every npm-ecosystem lockfile scanner shares: who pulls the SDK in
 * (a workspace manifest, another package) and how a locked entry is reported.
 */
import { posix } from "node:path";
import { parse as parseJson, type ParseError } from "jsonc-parser";
import semver from "semver";
import { JS_SDK } from "../../../knowledge/migration.js";
import { judgeNpmVersion, type NpmJudgement, sdkSpecOf } from "../../../knowledge/npm-versions.js";
import type { RepoFacts } from "../../scanner.js";
import type { FindingSink } from "../../scanner-helpers.js";
import { DEPENDENCY_FIELDS } from "./manifest.js";
import { isReportable, lockMessage, type NpmManager, reportDependency } from "./report.js";

/** A workspace (or the root project) that declares the SDK, as the lockfile records it. */
export interface Declaration {
  /** Repository-relative package.json path. */
  manifest: string;
  spec: string;
}

/** Another locked package that depends on the SDK. */
export interface Requirer {
  name: string;
  version: string;
  spec: string;
}

/** Everything a lockfile scanner learned before reporting its entries. */
export interface LockContext {
  sink: FindingSink;
  manager: NpmManager;
  declarations: Declaration[];
  requirers: Requirer[];
}

export interface LockedSdk {
  span: { start: number; end: number };
  /** The locked version, or the source of a non-registry entry. */
  version: string;
  /** The lockfile section, e.g. `packages`. */
  field: string;
  /** The entry's key in the lockfile. */
  key: string;
  excerpt?: string;
  /** Overrides the judgement of `version` (e.g. a version that could not be read). */
  judgement?: NpmJudgement;
  /** A sentence appended to the message. */
  note?: string;
  /** Exactly who uses this entry, when the format tells; otherwise guessed from the ranges. */
  declaredBy?: readonly Declaration[];
  requiredBy?: readonly Requirer[];
}

/** Reports a locked SDK entry unless it is V2. */
export function reportLockedSdk(context: LockContext, locked: LockedSdk): void {
  const judgement = locked.judgement ?? judgeNpmVersion(locked.version);
  if (!isReportable(judgement)) return;
  const declaredBy = locked.declaredBy ?? context.declarations.filter((d) => allows(d.spec, locked.version));
  const requirers = locked.requiredBy ?? context.requirers.filter((r) => allows(r.spec, locked.version));
  const requiredBy = requirers.map((r) => `${r.name}@${r.version}`);
  const lockfile = posix.basename(context.sink.file);
  const message = lockMessage({
    lockfile,
    manager: context.manager,
    version: locked.version,
    judgement,
    declaredBy,
    requiredBy: [...new Set(requiredBy)],
  });
  const fullMessage = locked.note ? `${message} ${locked.note}.` : message;
  reportDependency(
    context.sink,
    locked.span,
    judgement,
    fullMessage,
    judgement.verdict === "review" ? "review" : "manual",
    {
      spec: locked.version,
      field: locked.field,
      manager: context.manager,
      lockKey: locked.key,
      ...(declaredBy.length > 0 ? { declaredBy: declaredBy.map((d) => d.manifest) } : {}),
    },
    locked.excerpt,
  );
}

/** Whether a declared spec could have produced the locked version; specs that are not ranges are kept. */
function allows(spec: string, version: string): boolean {
  const range = semver.validRange(sdkSpecOf(JS_SDK.packageName, spec) ?? spec, { includePrerelease: true });
  if (range === null || semver.valid(version) === null) return true;
  return semver.satisfies(version, range, { includePrerelease: true });
}

/** The package.json of a workspace path recorded in a lockfile next to `lockfile`. */
export function manifestOf(lockfile: string, workspacePath: string): string {
  return posix.join(posix.dirname(lockfile), workspacePath === "" ? "." : workspacePath, "package.json");
}

/**
 * For lockfiles that do not record the root project's ranges (npm v1, yarn
 * classic, bun.lockb): the SDK entries of the package.json next to them.
 */
export function siblingManifestDeclarations(lockfile: string, repo: RepoFacts): Declaration[] {
  const manifest = manifestOf(lockfile, "");
  const text = repo.read(manifest);
  if (text === undefined) return [];
  const errors: ParseError[] = [];
  const json: unknown = parseJson(text, errors);
  if (errors.length > 0 || typeof json !== "object" || json === null) return [];
  const declarations: Declaration[] = [];
  for (const field of DEPENDENCY_FIELDS) {
    const section: unknown = (json as Record<string, unknown>)[field];
    if (typeof section !== "object" || section === null) continue;
    for (const [name, spec] of Object.entries(section)) {
      if (typeof spec === "string" && sdkSpecOf(name, spec) !== undefined) declarations.push({ manifest, spec });
    }
  }
  return declarations;
}
