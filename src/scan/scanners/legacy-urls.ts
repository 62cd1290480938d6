/**
 * Legacy host and V1 endpoints in any text file that is not JS/TS: config,
 * env files, docs, shell, other languages. Mentions in comments and docs are
 * warnings; in code and config they are errors. Web page links are skipped.
 */
import { type Finding, LineIndex, makeFinding } from "../../findings.js";
import { excerptOf, redactEnvLine } from "../../redact.js";
import { type FileKind, isJsFile } from "../file-kinds.js";
import { endpointMessage, legacyHostMessage } from "../messages.js";
import type { FileScanner } from "../scanner.js";
import { findLegacyHostMentions, type HostSet, parseUrlText, v1EndpointOf } from "../urls.js";

export const legacyUrlScanner: FileScanner = {
  id: "legacy-urls",
  matches: (file) => !isJsFile(file),
  scan: ({ file, text, kind, hosts }) => scanLegacyUrls(file, text, kind, hosts),
};

const COMMENT_LINE = /^\s*(#|\/\/|\/\*|\*|--|;|<!--|rem\s|REM\s)/;

export function scanLegacyUrls(file: string, text: string, kind: FileKind, hosts: HostSet): Finding[] {
  const lines = new LineIndex(text);
  const findings: Finding[] = [];
  for (const mention of findLegacyHostMentions(text, hosts)) {
    const location = lines.location(mention.start, mention.end);
    const lineText = lines.lineText(location.line);
    const isDocs = kind === "docs" || COMMENT_LINE.test(lineText);
    // A bare host is the API only where it is configured (the V1 SDK appends /api), not in prose.
    if (mention.kind === "page" || (mention.kind === "bare" && (isDocs || !isWholeValue(lineText, mention.url)))) continue;
    const severity = isDocs ? "warning" : "error";
    const excerpt = kind === "env" ? excerptOf(redactEnvLine(lineText)) : excerptOf(lineText);
    const push = (finding: Finding): void => {
      finding.excerpt = excerpt;
      findings.push(finding);
    };
    push(
      makeFinding(file, {
        ruleId: "legacy-base-url",
        message: legacyHostMessage(mention.kind === "bare" ? "bare" : "api", mention.url),
        location,
        severity,
      }),
    );
    const info = parseUrlText(mention.url, hosts);
    const method = methodNear(commandAround(text, lines, location.line));
    const endpoint = v1EndpointOf(info, method);
    if (!endpoint) continue;
    push(
      makeFinding(file, {
        ruleId: endpoint === "get-run" ? "legacy-get-run" : "legacy-create-run",
        message: endpointMessage(endpoint, method !== undefined),
        location,
        severity,
        ...(endpoint === "run-ambiguous" || method === undefined ? { fix: "review" as const } : {}),
      }),
    );
  }
  return findings;
}

/** `KEY=https://host` or `key: "https://host"`: the URL is the whole value, not a word in a sentence. */
function isWholeValue(line: string, url: string): boolean {
  const escaped = url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[=:]\\s*|[=:]\\s*["'])${escaped}/?(["']|\\s*$|\\s*[,#])`).test(line.trim());
}

/** The line plus its shell continuation lines, so `curl \` commands are read whole. */
function commandAround(text: string, lines: LineIndex, line: number): string {
  let first = line;
  while (first > 1 && /\\\s*$/.test(lines.lineText(first - 1))) first--;
  let last = line;
  while (/\\\s*$/.test(lines.lineText(last)) && lines.lineText(last + 1) !== "") last++;
  const parts: string[] = [];
  for (let l = first; l <= last; l++) parts.push(lines.lineText(l));
  return text.length > 0 ? parts.join(" ") : "";
}

function methodNear(command: string): string | undefined {
  if (/(-X\s*|--request[\s=]+)["']?POST\b|\.post\s*\(|\bmethod\s*[:=]\s*["']?post\b|\bPOST\s+(https?:|\/)|\s(-d|--data(-raw|-binary)?|--json)\s/i.test(command)) {
    return "POST";
  }
  if (/(-X\s*|--request[\s=]+)["']?GET\b|\.get\s*\(|\bmethod\s*[:=]\s*["']?get\b|\bGET\s+(https?:|\/)/i.test(command)) return "GET";
  return undefined;
}
