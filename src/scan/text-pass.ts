/**
 * Non-JS candidates: each goes to the file scanners that match it, and a
 * scanner that fails leaves an unreadable-file warning plus the text-level
 * rules' findings, never a failed scan.
 */
import type { Finding } from "../core/finding.js";
import type { HostSet } from "../core/urls.js";
import { fileKind } from "../platform/file-types.js";
import { decode } from "./file-reading.js";
import { looksBinary } from "./needles.js";
import type { FileScanner, RepoFacts } from "./scanner.js";
import { failureReason, FindingSink } from "./scanner-helpers.js";
import { scanLegacyUrls } from "./scanners/text/legacy-urls.js";
import { FILE_SCANNERS, GENERIC_URL_SCANNER } from "./scanners/index.js";

export interface TextCandidate {
  file: string;
  bytes: Buffer;
  scanners: FileScanner[];
}

export function scannersFor(file: string): FileScanner[] {
  const specific = FILE_SCANNERS.filter((s) => s !== GENERIC_URL_SCANNER && s.matches(file));
  const generic =
    specific.some((s) => s.coversLegacyUrls) || !GENERIC_URL_SCANNER.matches(file) ? [] : [GENERIC_URL_SCANNER];
  return [...generic, ...specific];
}

/**
 * Each scanner fails for its file only: a parser that gives up (a 5,000-deep
 * object, a grammar it does not know) leaves an unreadable-file warning, and
 * the text-level rules still report what the file plainly contains.
 */
export function scanTextFile(candidate: TextCandidate, hosts: HostSet, repo: RepoFacts): Finding[] {
  const { file, bytes, scanners } = candidate;
  const binary = looksBinary(bytes);
  const text = binary ? bytes.toString("latin1") : decode(bytes);
  const out: Finding[] = [];
  let textRulesRan = scanners.includes(GENERIC_URL_SCANNER);
  for (const scanner of scanners) {
    if (binary && !scanner.readsBinary) continue;
    try {
      out.push(...scanner.scan({ file, text, bytes, kind: fileKind(file), hosts, repo }));
    } catch (error) {
      const fallback =
        textRulesRan || binary ? [] : textFallback(file, text, `${scanner.id}: ${failureReason(error)}`, hosts);
      if (fallback.length === 0) out.push(unreadableFinding(file, text, `${scanner.id}: ${failureReason(error)}`));
      out.push(...fallback);
      textRulesRan = true;
    }
  }
  return out;
}

/** A file its parser could not take: the warning, and the legacy host and endpoints found in its text. */
export function textFallback(file: string, text: string, reason: string, hosts: HostSet): Finding[] {
  let found: Finding[] = [];
  try {
    found = scanLegacyUrls(file, text, "text", hosts);
  } catch (error) {
    reason += `; the text-level rules failed too (${failureReason(error)})`;
  }
  return [unreadableFinding(file, text, `${reason}; only the text-level rules (host, /run?run_id=) ran`), ...found];
}

function unreadableFinding(file: string, text: string, reason: string): Finding {
  return new FindingSink(file, text).unreadable(reason);
}
