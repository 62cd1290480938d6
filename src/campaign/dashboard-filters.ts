/**
 * The dashboard's filters: one select per state (readiness, pull request,
 * its checks, its review) that hides the table rows that do not match. The
 * script is inline and allowed by its hash alone, so the page still sends no
 * request; without script the bar stays hidden and every row shows.
 */
import { createHash } from "node:crypto";
import type { CampaignRow } from "./campaign-model.js";
import { CHECKS_LABEL, READINESS_LABEL, REVIEW_LABEL } from "./labels.js";
import { CHECKS_STATES, PR_STATES, REVIEW_STATES } from "./repo-report.js";
import { READINESS } from "./campaign-model.js";
import { escapeXml as esc } from "./svg-charts.js";

interface Filter {
  /** The row's data-* attribute it compares with. */
  key: "readiness" | "pr" | "checks" | "review";
  label: string;
  values: ReadonlyArray<readonly [value: string, label: string]>;
}

const FILTERS: readonly Filter[] = [
  { key: "readiness", label: "Readiness", values: READINESS.map((r) => [r, READINESS_LABEL[r]] as const) },
  {
    key: "pr",
    label: "Pull request",
    values: PR_STATES.map((s) => [s, s === "none" ? "no pull request" : s] as const),
  },
  { key: "checks", label: "Checks", values: CHECKS_STATES.map((c) => [c, CHECKS_LABEL[c]] as const) },
  { key: "review", label: "Review", values: REVIEW_STATES.map((r) => [r, REVIEW_LABEL[r]] as const) },
];

/** The row's value for each filter; checks and review only for an open pull request that has them. */
export function filterValues(row: CampaignRow): Record<Filter["key"], string> {
  return {
    readiness: row.readiness,
    pr: row.pullRequest?.state ?? "none",
    checks: row.pullRequest?.checks ?? "",
    review: row.pullRequest?.review ?? "",
  };
}

export function rowAttributes(row: CampaignRow): string {
  return Object.entries(filterValues(row))
    .map(([key, value]) => ` data-${key}="${esc(value)}"`)
    .join("");
}

export function filterBar(rows: readonly CampaignRow[]): string {
  if (rows.length === 0) return "";
  const selects = FILTERS.map((filter) => {
    const options = filter.values.map(([value, label]) => {
      const n = rows.filter((row) => filterValues(row)[filter.key] === value).length;
      return `<option value="${esc(value)}">${esc(label)} (${n})</option>`;
    });
    return `<label>${esc(filter.label)} <select name="${filter.key}" id="filter-${filter.key}"><option value="">any</option>${options.join("")}</select></label>`;
  });
  return `<form class="filters" id="filters" hidden>${selects.join("")}<span class="why" id="filter-count"></span></form>`;
}

const SCRIPT = `
const bar = document.getElementById("filters");
const rows = Array.from(document.querySelectorAll("#readiness-table tbody tr"));
const selects = Array.from(bar.querySelectorAll("select"));
const count = document.getElementById("filter-count");
function apply() {
  let shown = 0;
  for (const row of rows) {
    const match = selects.every((s) => s.value === "" || row.dataset[s.name] === s.value);
    row.hidden = !match;
    if (match) shown++;
  }
  count.textContent = shown + " of " + rows.length + " shown";
}
for (const s of selects) s.addEventListener("change", apply);
bar.hidden = false;
apply();
`;

/** The script tag, and the CSP source that allows exactly it. */
export function filterScript(): { tag: string; cspSource: string } {
  const hash = createHash("sha256").update(SCRIPT).digest("base64");
  return { tag: `<script>${SCRIPT}</script>`, cspSource: `'sha256-${hash}'` };
}
