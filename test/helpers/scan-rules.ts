/** Scans an in-memory repository and names one file's findings as `line:rule`, sorted. */
import { DEFAULT_HOSTS } from "../../src/core/urls.js";
import { scan } from "../../src/scan/engine.js";
import { tempRepo } from "./temp-repo.js";

export async function rulesIn(files: Record<string, string>, file: string): Promise<string[]> {
  const result = await scan({ root: tempRepo(files), hosts: DEFAULT_HOSTS, workers: false });
  return result.findings
    .filter((f) => f.file === file)
    .map((f) => `${f.line}:${f.ruleId}`)
    .sort();
}
