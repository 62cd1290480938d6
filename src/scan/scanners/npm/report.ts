/**
 * How npm SDK dependency findings are worded and what they carry, so the
 * manifest and every lockfile scanner say the same thing the same way.
 */
import type { Finding } from "../../../core/finding.js";
import { JS_SDK } from "../../../knowledge/migration.js";
import type { NpmJudgement } from "../../../knowledge/npm-versions.js";
import type { NpmDependencyFacts, NpmManager } from "../../../core/facts.js";
import type { FixClass } from "../../../rules/catalog.js";
import type { FindingSink } from "../../scanner-helpers.js";
import { INSTALL_COMMANDS, REMOVE_COMMANDS } from "../../../lang/js/npm-package.js";

export type { NpmManager };

const [ZOD_NAME, ZOD_RANGE] = Object.entries(JS_SDK.v2PeerDependencies)[0]!;

/** What to write instead, and why it must be exact. */
export function pinAdvice(): string {
  return (
    `pin ${JS_SDK.packageName}@${JS_SDK.v2Pin} exactly (the registry's latest tag is still V1, ${JS_SDK.latestTagIsV1}) ` +
    `and add ${ZOD_NAME}@${ZOD_RANGE} (a peer dependency of V2)`
  );
}

/** Where a manifest entry sits, which changes what can be done about it. */
export type ManifestRole =
  /** dependencies, devDependencies, optionalDependencies, peerDependencies */
  | "dependency"
  /** a top-level override or resolution: applies wherever the SDK is installed */
  | "override"
  /** an override under another package: only that package's copy is forced */
  | "scoped-override"
  /** a pnpm or bun catalog entry that workspaces refer to with `catalog:` */
  | "catalog";

export interface ManifestEntry {
  /** The key as written (`comfydeploy`, an alias, `**\/comfydeploy`). */
  key: string;
  /** The value as written. */
  spec: string;
  /** The section, e.g. `dependencies` or `overrides.some-lib`. */
  field: string;
  role: ManifestRole;
  judgement: NpmJudgement;
  manager: NpmManager;
  /** Set for dependencies when no code in the package imports the SDK. */
  unused: boolean;
  /** The package that owns a scoped override. */
  parent?: string;
}

export function manifestMessage(entry: ManifestEntry): string {
  const subject = `"${entry.key}": "${entry.spec}" in ${entry.field}`;
  const what = entry.judgement.reason;
  const advice = pinAdvice();
  switch (entry.role) {
    case "dependency":
      return entry.unused
        ? `${subject} ${what}, and no code in this package imports ${JS_SDK.packageName}: remove it with \`${REMOVE_COMMANDS[entry.manager]} ${JS_SDK.packageName}\` (or run fix --remove-unused); if code will use it, ${advice}.`
        : `${subject} ${what}. For V2, ${advice}.`;
    case "override":
      return (
        `${subject} ${what}, and forces it wherever ${JS_SDK.packageName} is installed. ` +
        `For V2, ${advice}; keep the override equal to the dependency.`
      );
    case "scoped-override":
      return (
        `${subject} ${what} for ${entry.parent ?? "another package"} only, which may itself need the V1 API: ` +
        `upgrade that package or drop the override, then ${advice}.`
      );
    case "catalog":
      return `${subject} ${what} for every workspace that takes it from this catalog. For V2, ${advice}.`;
  }
}

export function manifestFix(entry: ManifestEntry): FixClass {
  // Nothing imports it: removing it is the user's call (fix --remove-unused makes it).
  if (entry.unused) return "manual";
  if (entry.judgement.verdict === "review" || entry.role === "scoped-override") return "review";
  return "auto";
}

export interface LockEntry {
  /** The lockfile's own file name, for the message. */
  lockfile: string;
  manager: NpmManager;
  /** The locked version (or the source, for non-registry entries). */
  version: string;
  judgement: NpmJudgement;
  /** Manifests (repository-relative) that declare the SDK, with their ranges. */
  declaredBy: ReadonlyArray<{ manifest: string; spec: string }>;
  /** Other locked packages that depend on the SDK (`name@version`). */
  requiredBy: readonly string[];
}

export function lockMessage(entry: LockEntry): string {
  const { verdict, reason } = entry.judgement;
  const origin = originOf(entry);
  const regenerate = `then run \`${INSTALL_COMMANDS[entry.manager]}\` to regenerate ${entry.lockfile}; do not edit the lockfile by hand`;
  const subject = `${entry.lockfile} locks ${JS_SDK.packageName}${entry.version ? ` ${entry.version}` : ""}`;
  if (verdict === "review")
    return `${subject}, which ${reason}${origin}. For V2, ${pinAdvice()} in the manifest, ${regenerate}.`;
  // Only pulled in by other packages: those are what to change first.
  const onlyTransitive = entry.declaredBy.length === 0 && entry.requiredBy.length > 0;
  const transitive = onlyTransitive ? " Upgrade or replace the packages that require it, or" : " In the manifest,";
  return `${subject}, which ${reason}${origin}.${transitive} ${pinAdvice()}, ${regenerate}.`;
}

function originOf(entry: LockEntry): string {
  const parts: string[] = [];
  if (entry.declaredBy.length > 0) {
    const manifests = new Set(entry.declaredBy.map((d) => (d.spec ? `${d.manifest} ("${d.spec}")` : d.manifest)));
    parts.push(`declared in ${[...manifests].join(", ")}`);
  }
  if (entry.requiredBy.length > 0) parts.push(`required by ${entry.requiredBy.join(", ")}`);
  return parts.length > 0 ? `; ${parts.join("; ")}` : "";
}

/** Records one finding: errors for V1, warnings for entries to review. */
export function reportDependency(
  sink: FindingSink,
  span: { start: number; end: number },
  judgement: NpmJudgement,
  message: string,
  fix: FixClass,
  facts: Omit<NpmDependencyFacts, "kind" | "verdict">,
  excerpt?: string,
): Finding {
  const finding = sink.atOffset(
    span.start,
    span.end,
    {
      ruleId: "v1-sdk-dependency",
      message,
      fix,
      ...(judgement.verdict === "review" ? { severity: "warning" as const } : {}),
      facts: { kind: "npm-dependency", verdict: judgement.verdict === "v1" ? "v1" : "review", ...facts },
    },
    excerpt,
  );
  return finding;
}

/** Whether a judgement deserves a finding at all. */
export function isReportable(judgement: NpmJudgement): boolean {
  return judgement.verdict !== "v2";
}
