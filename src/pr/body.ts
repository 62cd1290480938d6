/**
 * The pull request body: what the fix changed, a checklist of review markers,
 * the live check, the scan report of the fixed tree, and the command that
 * made it. Each part has a budget so the whole stays under GitHub's limit;
 * the scan report takes whatever is left (it summarises itself to fit).
 */
import { renderCheckMarkdown } from "../check/render.js";
import type { Verification } from "../fix/verify.js";
import { verificationMarkdown } from "../fix/verify-report.js";
import type { CheckResult } from "../check/live-check.js";
import type { FixEvent } from "../../transforms/types.js";
import { GITHUB_BODY_LIMIT, renderMarkdown } from "../report/markdown.js";
import type { Report } from "../report/model.js";

/** One changed file, path relative to the repository root. */
export interface ChangedFile {
  file: string;
  events: readonly FixEvent[];
}

/** A review marker in the fixed tree: where it stands and what it asks. */
export interface ReviewItem {
  file: string;
  line: number;
  text: string;
}

export type LiveCheckSection = { kind: "result"; result: CheckResult } | { kind: "planned"; deploymentId: string };

export interface BodyInputs {
  changes: readonly ChangedFile[];
  reviewItems: readonly ReviewItem[];
  /** The scan of the fixed tree, review markers left out (they are the checklist). */
  remaining: Report;
  check?: LiveCheckSection;
  /** The command line that produced the pull request. */
  command: string;
  tool: { name: string; version: string };
  /** `fix --verify` on the written tree, file paths repository-relative. */
  verification?: Verification;
  /** Dry runs cannot scan a tree they do not write: say the remaining findings are an estimate. */
  estimated?: boolean;
}

const CHANGES_BUDGET = 16_000;
const REVIEW_BUDGET = 16_000;
const CHECK_BUDGET = 4_000;
/** Room for joining newlines and the final guard. */
const MARGIN = 256;

export function renderPrBody(inputs: BodyInputs): string {
  const intro = [
    `This pull request moves the ComfyDeploy V1 API use in this repository to V2. ${inputs.tool.name} rewrote what it could rewrite safely and left a \`TODO(comfydeploy-migrate)\` review marker where a person has to decide.`,
    "",
    "Each run fixes the base branch afresh and force-pushes this branch when the result changes, so commits pushed here by hand are replaced: keep your own changes on a branch of your own.",
    "",
    "",
  ].join("\n");
  const changes = changesSection(inputs);
  const review = reviewSection(inputs);
  const check = (inputs.check ? checkSection(inputs.check) : "") + verificationSection(inputs);
  const footer = [
    "",
    "---",
    "",
    `<sub>Created by ${inputs.tool.name} ${inputs.tool.version} with:</sub>`,
    "",
    "```sh",
    inputs.command,
    "```",
    "",
  ].join("\n");
  const fixed = intro.length + changes.length + review.length + check.length + footer.length + MARGIN;
  const note = inputs.estimated
    ? "_Dry run: findings in the files the fix changes are only known once it is written._\n\n"
    : "";
  const remaining = renderMarkdown(inputs.remaining, {
    title: "Remaining findings after the fix",
    limit: GITHUB_BODY_LIMIT - fixed - note.length,
  });
  const body = `${intro}${changes}${review}${check}${note}${remaining}${footer}`;
  return body.length < GITHUB_BODY_LIMIT
    ? body
    : `${body.slice(0, GITHUB_BODY_LIMIT - MARGIN)}\n\n_… cut to fit GitHub's body limit._\n${footer}`;
}

function changesSection(inputs: BodyInputs): string {
  const rewrites = count(inputs.changes, "rewrite");
  const markers = count(inputs.changes, "marker");
  const head = [
    "## What changed",
    "",
    `**${plural(inputs.changes.length, "file")} changed**: ${plural(rewrites, "site")} rewritten, ${plural(markers, "review marker")} added.`,
    "",
    "| file | rewritten | review markers |",
    "|---|---:|---:|",
  ].join("\n");
  const rows = inputs.changes.map(
    (c) =>
      `| ${fileLink(inputs.remaining, c.file)} | ${c.events.filter((e) => e.kind === "rewrite").length} | ${c.events.filter((e) => e.kind === "marker").length} |`,
  );
  const table = `${head}\n${within(rows, CHANGES_BUDGET / 2, (n) => `| … and ${plural(n, "more file")} | | |`)}\n`;
  const details = inputs.changes.flatMap((c) =>
    c.events.map(
      (e) =>
        `- \`${code(c.file)}\` line ${e.line}: ${e.kind === "rewrite" ? "rewrote" : "marked"} \`${e.ruleId}\`: ${text(e.message)}`,
    ),
  );
  const list =
    details.length === 0
      ? ""
      : within(details, CHANGES_BUDGET / 2 - 200, (n) => `- … and ${plural(n, "more change")}; the diff has them all.`);
  const collapsed = list
    ? `\n<details><summary>Every change (lines as they were before the fix)</summary>\n\n${list}\n\n</details>\n`
    : "";
  return `${table}${collapsed}\n`;
}

function reviewSection(inputs: BodyInputs): string {
  const head = "## Needs review\n\n";
  if (inputs.reviewItems.length === 0)
    return `${head}No review markers: every change is a rewrite. Review the diff as usual.\n\n`;
  const items = inputs.reviewItems.map((m) => `- [ ] ${lineLink(inputs.remaining, m.file, m.line)}: ${text(m.text)}`);
  const intro = `Resolve each marker, then delete it (\`scan --fail-on warning\` stays red while any is left):\n\n`;
  return `${head}${intro}${within(items, REVIEW_BUDGET, (n) => `- [ ] … and ${plural(n, "more marker")}: run \`${inputs.remaining.command} --fail-on warning\` on this branch to list them`)}\n\n`;
}

function verificationSection(inputs: BodyInputs): string {
  if (!inputs.verification) return "";
  return `${verificationMarkdown(inputs.verification, (file, line) => lineLink(inputs.remaining, file, line))}\n`;
}

function checkSection(check: LiveCheckSection): string {
  const head = "## Live check\n\n";
  if (check.kind === "planned") {
    return `${head}A real run of deployment \`${code(check.deploymentId)}\` with the migration flag would be queued (not in a dry run).\n\n`;
  }
  const rendered = renderCheckMarkdown(check.result);
  return `${head}${rendered.length > CHECK_BUDGET ? `${rendered.slice(0, CHECK_BUDGET)}\n…\n` : rendered}\n`;
}

/** As many lines as fit the budget, then one line counting the rest. */
function within(lines: readonly string[], budget: number, more: (left: number) => string): string {
  const kept: string[] = [];
  let size = 0;
  for (const [index, line] of lines.entries()) {
    const tail = index < lines.length - 1 ? more(lines.length - index).length + 1 : 0;
    if (size + line.length + 1 + tail > budget) {
      kept.push(more(lines.length - index));
      break;
    }
    kept.push(line);
    size += line.length + 1;
  }
  return kept.join("\n");
}

function fileLink(report: Report, file: string): string {
  const url = webUrl(report, file);
  return url ? `[\`${code(file)}\`](${url})` : `\`${code(file)}\``;
}

function lineLink(report: Report, file: string, line: number): string {
  const url = webUrl(report, file);
  return url ? `[\`${code(file)}:${line}\`](${url}#L${line})` : `\`${code(file)}:${line}\``;
}

function webUrl(report: Report, file: string): string | undefined {
  if (!report.repo) return undefined;
  return `${report.repo.url}/blob/${report.repo.commit ?? "HEAD"}/${file.split("/").map(encodeURIComponent).join("/")}`;
}

function count(changes: readonly ChangedFile[], kind: FixEvent["kind"]): number {
  return changes.reduce((n, c) => n + c.events.filter((e) => e.kind === kind).length, 0);
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** Plain text in Markdown: HTML-looking parts shown, not swallowed; one line. */
function text(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\s*\n\s*/g, " ");
}

function code(value: string): string {
  return value.replace(/`/g, "'");
}
