/** What `pr` did, for chaining: JSON on stdout and, on GitHub Actions, step outputs. */
import { appendFile } from "node:fs/promises";
import { RuntimeFailure } from "../core/errors.js";

export type PrOperation = "created" | "updated" | "unchanged" | "closed";

export interface PrOutcome {
  operation: PrOperation;
  /** The open (or just closed) pull request, when there is one. */
  number?: number;
  url?: string;
  branch: string;
  base?: string;
  /** The commit the branch points at on origin after this run. */
  commit?: string;
  pushed: boolean;
  changedFiles: number;
  /** Steps that failed without undoing the pull request (labels, reviewers). */
  warnings: string[];
}

export function outcomeJson(outcome: PrOutcome): string {
  return `${JSON.stringify(
    {
      operation: outcome.operation,
      number: outcome.number ?? null,
      url: outcome.url ?? null,
      branch: outcome.branch,
      base: outcome.base ?? null,
      commit: outcome.commit ?? null,
      pushed: outcome.pushed,
      changedFiles: outcome.changedFiles,
      warnings: outcome.warnings,
    },
    null,
    2,
  )}\n`;
}

/** Appends number=, url= and operation= to the file GitHub Actions names in GITHUB_OUTPUT. */
export async function writeStepOutputs(file: string | undefined, outcome: PrOutcome): Promise<void> {
  if (!file) return;
  const lines = [`number=${outcome.number ?? ""}`, `url=${outcome.url ?? ""}`, `operation=${outcome.operation}`];
  try {
    await appendFile(file, `${lines.join("\n")}\n`, "utf8");
  } catch (error) {
    throw new RuntimeFailure(
      `cannot write the step outputs to GITHUB_OUTPUT (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}
