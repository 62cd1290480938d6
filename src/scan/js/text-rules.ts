/**
 * The JS rules that need no parser, for minified and bundled files: the
 * legacy host and endpoints as text, and a specifier of the SDK package in a
 * file that names a V1 export (a bundle that leaves `comfydeploy` external).
 */
import type { Finding } from "../../core/finding.js";
import type { HostSet } from "../../core/urls.js";
import { JS_SDK, V1_SDK_EXPORTS } from "../../knowledge/migration.js";
import { sdkImportMessage } from "../messages.js";
import { FindingSink } from "../scanner-helpers.js";
import { scanLegacyUrls } from "../scanners/text/legacy-urls.js";

const SDK_SPECIFIER = new RegExp(`(?:\\bfrom\\s*|\\brequire\\s*\\(\\s*|\\bimport\\s*\\(\\s*)(["'])${JS_SDK.packageName}(?:/[^"'\\n]*)?\\1`, "g");

export function jsTextRules(file: string, text: string, hosts: HostSet): Finding[] {
  const findings = scanLegacyUrls(file, text, "text", hosts);
  // Loaded without the parser: the names come from the migration data, not from v1-sdk.ts.
  const v1Name = V1_SDK_EXPORTS.map((e) => e.v1).find((name) => new RegExp(`(?<![\\w$])${name}(?![\\w$])`).test(text));
  if (v1Name === undefined) return findings;
  const sink = new FindingSink(file, text);
  for (const match of text.matchAll(SDK_SPECIFIER)) {
    const start = match.index + match[0].indexOf(match[1]!);
    sink.atOffset(start, match.index + match[0].length, { ruleId: "v1-sdk-import", message: sdkImportMessage(v1Name) });
  }
  return [...findings, ...sink.findings];
}
