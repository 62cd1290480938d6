/** Per-rule settings from the config file: a rule turned off, its severity changed, or limited to some paths. */
import picomatch from "picomatch";
import type { RuleSettings } from "./config.js";
import type { Finding } from "../core/finding.js";

/** The findings the settings keep, with configured severities applied. */
export function applyRuleSettings(findings: readonly Finding[], rules: RuleSettings): Finding[] {
  const inPaths = new Map<string, (file: string) => boolean>();
  for (const [id, setting] of Object.entries(rules)) {
    if (setting?.paths && setting.paths.length > 0) inPaths.set(id, pathFilter(setting.paths));
  }
  const out: Finding[] = [];
  for (const finding of findings) {
    const setting = rules[finding.ruleId];
    if (!setting) {
      out.push(finding);
      continue;
    }
    if (setting.off) continue;
    if (inPaths.has(finding.ruleId) && !inPaths.get(finding.ruleId)!(finding.file)) continue;
    out.push(setting.severity ? { ...finding, severity: setting.severity } : finding);
  }
  return out;
}

/** `paths`: a file must match one positive glob (when there are any) and no `!glob`. */
function pathFilter(globs: readonly string[]): (file: string) => boolean {
  const positive = globs.filter((g) => !g.startsWith("!"));
  const negative = globs.filter((g) => g.startsWith("!")).map((g) => g.slice(1));
  const included = positive.length > 0 ? picomatch(positive, { dot: true }) : () => true;
  const excluded = negative.length > 0 ? picomatch(negative, { dot: true }) : () => false;
  return (file) => included(file) && !excluded(file);
}
