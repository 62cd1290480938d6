/**
 * The report every renderer reads: the scan result after suppressions and
 * the baseline are applied, with what is needed to reproduce and link it.
 */
import { capPerRuleAndFile } from "./cap.js";
import type { Finding, SkippedFile } from "../core/finding.js";
import { cutoffStatus, type CutoffStatus } from "../knowledge/cutoff.js";
import type { ScanResult } from "../scan/engine.js";
import { isActivelySuppressed } from "../core/suppression.js";
import { TOOL } from "../platform/tool-info.js";
import { assignFingerprints } from "../core/fingerprint.js";
import { fromRepoRoot, type Provenance, type RepoRoot } from "../files/repo-root.js";
import { type Baseline, isInBaseline } from "./baseline.js";
import { redactDeep, redactSecrets } from "../core/redact.js";

export interface RepoLink {
  /** e.g. https://github.com/owner/name */
  url: string;
  /** Commit to link lines at; the default branch when absent. */
  commit?: string;
}

export interface Report {
  tool: { name: string; version: string };
  /** The repository root (the git top level, else the scanned directory): every `file` is relative to it. */
  root: string;
  /** Findings to act on: not suppressed (or suppression expired), not in the baseline. */
  findings: Finding[];
  suppressed: Finding[];
  /** Findings the baseline already had: not reported as new, never failing the run. */
  baselined: Finding[];
  skipped: SkippedFile[];
  stats: ScanResult["stats"];
  cutoff: CutoffStatus;
  /** The command line that reproduces this report. */
  command: string;
  repo?: RepoLink;
  /** The git repository the files belong to, for SARIF's versionControlProvenance. */
  provenance?: Provenance;
}

export interface ReportOptions {
  baseline?: Baseline;
  now?: Date;
  command: string;
  repo?: RepoLink;
  /** Where paths start when the scanned directory is inside a repository; default: the scanned directory. */
  repoRoot?: RepoRoot;
}

export function buildReport(result: ScanResult, options: ReportOptions): Report {
  const findings: Finding[] = [];
  const suppressed: Finding[] = [];
  const baselined: Finding[] = [];
  const { findings: all, skipped } = options.repoRoot ? rebase(result, options.repoRoot) : result;
  for (const finding of all) {
    if (isActivelySuppressed(finding)) suppressed.push(finding);
    else if (options.baseline && isInBaseline(finding, options.baseline)) baselined.push(finding);
    else findings.push(finding);
  }
  // Every renderer (text, JSON, Markdown, SARIF, the PR body, campaign reports) reads this model: secrets go here, once.
  return {
    tool: { name: TOOL.name, version: TOOL.version },
    root: options.repoRoot?.top ?? result.root,
    findings: redactDeep(capPerRuleAndFile(findings)),
    suppressed: redactDeep(suppressed),
    baselined: redactDeep(baselined),
    skipped: redactDeep(skipped),
    stats: result.stats,
    cutoff: cutoffStatus(options.now),
    command: redactSecrets(options.command),
    ...(options.repo ? { repo: options.repo } : {}),
    ...(options.repoRoot?.provenance ? { provenance: options.repoRoot.provenance } : {}),
  };
}

/**
 * Paths made relative to the repository root. Fingerprints include the path,
 * so they are computed again: a finding keeps one fingerprint whether the
 * repository or a directory in it was scanned.
 */
function rebase(result: ScanResult, repoRoot: RepoRoot): Pick<ScanResult, "findings" | "skipped"> {
  if (repoRoot.prefix === "") return result;
  const findings = result.findings.map((f) => ({ ...f, file: fromRepoRoot(repoRoot, f.file) }));
  assignFingerprints(findings);
  return { findings, skipped: result.skipped.map((s) => ({ ...s, file: fromRepoRoot(repoRoot, s.file) })) };
}

/** The repository link from --repo-url, or from GitHub Actions' environment. */
export function repoLinkFrom(repoUrl: string | undefined, env: NodeJS.ProcessEnv): RepoLink | undefined {
  if (repoUrl) return { url: repoUrl.replace(/\/+$/, ""), ...(env.GITHUB_SHA ? { commit: env.GITHUB_SHA } : {}) };
  if (env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY) {
    return {
      url: `${env.GITHUB_SERVER_URL.replace(/\/+$/, "")}/${env.GITHUB_REPOSITORY}`,
      ...(env.GITHUB_SHA ? { commit: env.GITHUB_SHA } : {}),
    };
  }
  return undefined;
}

/** A link to a file line in the repository's web UI, when the repository is known. */
export function lineLink(report: Report, finding: Finding): string | undefined {
  if (!report.repo) return undefined;
  const ref = report.repo.commit ?? "HEAD";
  // Parentheses too: an unbalanced one would end a Markdown link early (Next.js route groups are "(name)").
  const path = finding.file
    .split("/")
    .map((part) =>
      encodeURIComponent(part).replace(/[()!*']/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`),
    )
    .join("/");
  return `${report.repo.url}/blob/${ref}/${path}#L${finding.line}`;
}
