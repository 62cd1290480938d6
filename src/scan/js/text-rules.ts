/**
 * The JS rules that need no parser, for minified and bundled files: the
 * legacy host and endpoints as text, and a specifier of the SDK package in a
 * file that names a V1 export (a bundle that leaves `comfydeploy` external).
 */
import type { Finding } from "../../core/finding.js";
import type { HostSet } from "../../core/urls.js";
import { V1_SDK_EXPORTS } from "../../knowledge/migration.js";
import { importSpecifiersIn } from "../../lang/js/module-syntax.js";
import { isSdkModule } from "../../lang/js/sdk-module.js";
import { sdkImportMessage } from "../messages.js";
import { FindingSink } from "../scanner-helpers.js";
import { scanLegacyUrls } from "../scanners/text/legacy-urls.js";

/** The V1 SDK's export names as whole words; loaded without the parser, so read from the migration data, not v1-sdk.ts. */
const V1_EXPORT = new RegExp(`(?<![\\w$])(?:${V1_SDK_EXPORTS.map((e) => e.v1).join("|")})(?![\\w$])`);

export function jsTextRules(file: string, text: string, hosts: HostSet): { findings: Finding[]; importsSdk: boolean } {
  const findings = scanLegacyUrls(file, text, "text", hosts);
  const specifiers = importSpecifiersIn(text).filter((s) => isSdkModule(s.specifier));
  // The package is used, whatever the version: its manifest entry must not be called unused.
  const importsSdk = specifiers.length > 0;
  const v1Name = importsSdk ? V1_EXPORT.exec(text)?.[0] : undefined;
  if (v1Name === undefined) return { findings, importsSdk };
  const sink = new FindingSink(file, text);
  for (const { start, end } of specifiers)
    sink.atOffset(start, end, { ruleId: "v1-sdk-import", message: sdkImportMessage(v1Name) });
  return { findings: [...findings, ...sink.findings], importsSdk };
}
