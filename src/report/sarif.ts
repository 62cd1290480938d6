/**
 * SARIF 2.1.0 for code scanning. Rules come from the catalog; results carry
 * physical locations and partialFingerprints so a result is recognised across
 * runs; suppressed findings are included as suppressed results, and findings
 * the baseline already had are marked `unchanged` rather than dropped (so
 * code scanning does not close their alerts).
 */
import { pathToFileURL } from "node:url";
import type { Log, ReportingDescriptor, Result, VersionControlDetails } from "sarif";
import type { Finding } from "../core/finding.js";
import { fencedBlock } from "../core/markdown-escape.js";
import { REPOSITORY_URL } from "../knowledge/migration.js";
import { RULES, type Severity } from "../rules/catalog.js";
import type { Provenance } from "../files/repo-root.js";
import type { Report } from "./model.js";

export const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
export const FINGERPRINT_KEY = "comfydeployMigrate/v1";
const SRCROOT = "%SRCROOT%";

const LEVEL: Record<Severity, Result.level> = { error: "error", warning: "warning", info: "note" };

export function renderSarif(report: Report): string {
  const rules: ReportingDescriptor[] = [...RULES.values()].map((rule) => ({
    id: rule.id,
    name: rule.id.replace(/(^|-)([a-z0-9])/g, (_m, _d, ch: string) => ch.toUpperCase()),
    shortDescription: { text: rule.title },
    fullDescription: { text: rule.explanation },
    helpUri: rule.docs,
    help: {
      text: `${rule.explanation}\n\nExample:\n${rule.example}`,
      markdown: `${rule.explanation}\n\n${fencedBlock(rule.example)}`,
    },
    defaultConfiguration: { level: LEVEL[rule.severity] },
    properties: { fix: rule.fix, tags: ["comfydeploy", "migration"] },
  }));
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));
  const result = (f: Finding, baselineState: Result.baselineState | undefined): Result => ({
    ruleId: f.ruleId,
    ruleIndex: ruleIndex.get(f.ruleId)!,
    level: LEVEL[f.severity],
    message: { text: f.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: f.file.split("/").map(encodeURIComponent).join("/"), uriBaseId: SRCROOT },
          region: {
            startLine: f.line,
            startColumn: f.column,
            endLine: f.endLine,
            endColumn: f.endColumn,
            ...(f.excerpt ? { snippet: { text: f.excerpt } } : {}),
          },
        },
      },
    ],
    ...(f.fingerprint ? { partialFingerprints: { [FINGERPRINT_KEY]: f.fingerprint } } : {}),
    ...(baselineState ? { baselineState } : {}),
    ...(f.suppression && !f.suppression.expired
      ? {
          suppressions: [
            { kind: "inSource" as const, status: "accepted" as const, justification: f.suppression.reason },
          ],
        }
      : {}),
    properties: { fix: f.fix },
  });
  const hasBaseline = report.baselined.length > 0;
  const log: Log = {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: report.tool.name,
            version: report.tool.version,
            semanticVersion: report.tool.version,
            informationUri: REPOSITORY_URL,
            rules,
          },
        },
        originalUriBaseIds: {
          [SRCROOT]: { uri: pathToFileURL(report.root.endsWith("/") ? report.root : `${report.root}/`).href },
        },
        ...(report.provenance ? { versionControlProvenance: [provenanceOf(report.provenance)] } : {}),
        invocations: [{ executionSuccessful: true, commandLine: report.command }],
        results: [
          ...report.findings.map((f) => result(f, hasBaseline ? "new" : undefined)),
          ...report.baselined.map((f) => result(f, "unchanged")),
          ...report.suppressed.map((f) => result(f, undefined)),
        ],
        properties: { cutoff: report.cutoff.summary },
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/** The repository the paths belong to; its files map to %SRCROOT%, so code scanning can tie results to commits. */
function provenanceOf(p: Provenance): VersionControlDetails {
  return {
    repositoryUri: p.repositoryUri,
    ...(p.revisionId ? { revisionId: p.revisionId } : {}),
    ...(p.branch ? { branch: p.branch } : {}),
    mappedTo: { uriBaseId: SRCROOT },
  };
}
