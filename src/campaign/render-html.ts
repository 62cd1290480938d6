/**
 * campaign.html: the dashboard as one self-contained file. Styles, charts
 * and the filters' script are inline; a Content-Security-Policy that allows
 * nothing else (the script only by its hash) makes sure opening it sends no
 * request (links only lead away when clicked).
 */
import type { Campaign, CampaignRow } from "./campaign-model.js";
import { filterBar, filterScript, rowAttributes } from "./dashboard-filters.js";
import { CHECKS_LABEL, nodePinLabel, READINESS_LABEL, REVIEW_LABEL } from "./labels.js";
import { barChart, escapeXml as esc, lineChart } from "./svg-charts.js";
import { getRule, type RuleId, RULE_IDS } from "./tool-api.js";

function csp(scriptSource: string | undefined): string {
  return `default-src 'none'; style-src 'unsafe-inline'; img-src data:;${scriptSource ? ` script-src ${scriptSource};` : ""} base-uri 'none'; form-action 'none'`;
}

const STYLE = `
:root { color-scheme: light; --ink:#1d2330; --muted:#5b6475; --line:#d9dee7; --bg:#f6f7fa; --ok:#1f7a3f; --bad:#b3261e; --warn:#8a5a00; --accent:#2f5fd0; }
* { box-sizing: border-box; }
body { margin:0; font:15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:var(--ink); background:var(--bg); }
main { max-width:1180px; margin:0 auto; padding:28px 24px 48px; }
h1 { font-size:26px; margin:0 0 4px; } h2 { font-size:19px; margin:34px 0 12px; }
.sub { color:var(--muted); margin:0 0 20px; }
.cutoff { border-radius:8px; padding:14px 18px; margin:0 0 22px; border:1px solid; }
.cutoff.passed { background:#fdecea; border-color:#f3b8b3; } .cutoff.ahead { background:#eef3fd; border-color:#bccdf3; }
.cutoff strong { display:block; font-size:20px; margin-bottom:2px; }
.tiles { display:grid; grid-template-columns:repeat(auto-fit,minmax(150px,1fr)); gap:12px; }
.tile { background:#fff; border:1px solid var(--line); border-radius:8px; padding:12px 14px; }
.tile b { display:block; font-size:26px; } .tile span { color:var(--muted); font-size:13px; }
table { width:100%; border-collapse:collapse; background:#fff; border:1px solid var(--line); border-radius:8px; overflow:hidden; }
th, td { padding:8px 10px; border-bottom:1px solid var(--line); text-align:left; vertical-align:top; }
th { background:#eef0f5; font-size:13px; color:var(--muted); font-weight:600; }
td.n { text-align:right; font-variant-numeric:tabular-nums; } td.zero { color:#9aa2b1; }
.badge { display:inline-block; padding:1px 8px; border-radius:10px; font-size:12.5px; font-weight:600; white-space:nowrap; }
.ready { background:#e3f4e8; color:var(--ok); } .not-ready { background:#fdecea; color:var(--bad); } .failed { background:#fff1d6; color:var(--warn); }
.why { color:var(--muted); font-size:12.5px; margin-top:3px; } .nowrap { white-space:nowrap; } code { font-size:12.5px; }
a { color:var(--accent); }
.chart { background:#fff; border:1px solid var(--line); border-radius:8px; padding:14px; }
svg text { font:13px system-ui, sans-serif; fill:var(--ink); } svg .detail, svg .tick { fill:var(--muted); font-size:11.5px; }
svg rect { fill:var(--accent); } svg .value { font-weight:600; }
svg .axis { stroke:#9aa2b1; stroke-width:1; } svg .line { fill:none; stroke:var(--bad); stroke-width:2.5; } svg circle { fill:var(--bad); }
svg .partial circle { fill:#fff; stroke:var(--bad); stroke-width:2; }
#merged-chart svg .line { stroke:var(--ok); } #merged-chart svg circle { fill:var(--ok); }
.empty { color:var(--muted); font-style:italic; }
.filters { display:flex; flex-wrap:wrap; gap:8px 18px; align-items:center; margin:0 0 10px; font-size:13.5px; color:var(--muted); }
.filters select { font:inherit; color:var(--ink); padding:2px 4px; } tr[hidden] { display:none; }
.checks-passed, .approved { background:#e3f4e8; color:var(--ok); } .checks-failed, .changes-requested { background:#fdecea; color:var(--bad); }
.checks-pending, .checks-none, .review-required { background:#eef0f5; color:var(--muted); }
.reasons { margin:3px 0 0; padding-left:16px; }
footer { color:var(--muted); font-size:12.5px; margin-top:36px; }
`;

export function renderCampaignHtml(campaign: Campaign): string {
  const t = campaign.totals;
  const script = campaign.repositories.length > 0 ? filterScript() : undefined;
  const body = [
    `<h1>ComfyDeploy V2 migration campaign</h1>`,
    `<p class="sub">${t.repositories} ${plural(t.repositories, "repository", "repositories")} · generated ${esc(stamp(campaign.generatedAt))} by ${esc(campaign.tool.name)} ${esc(campaign.tool.version)}</p>`,
    cutoffBanner(campaign),
    tiles(campaign),
    `<h2 id="readiness">Readiness by repository</h2>`,
    filterBar(campaign.repositories),
    readinessTable(campaign.repositories),
    `<h2 id="by-rule">V1 findings by rule, across the estate</h2>`,
    `<div class="chart" id="rule-chart">${ruleChart(campaign)}</div>`,
    `<h2 id="burn-down">Burn-down</h2>`,
    `<div class="chart" id="burn-down-chart">${burnDown(campaign)}</div>`,
    `<h2 id="pull-requests-merged">Pull requests merged</h2>`,
    `<div class="chart" id="merged-chart">${mergedPulls(campaign)}</div>`,
    `<footer>Each repository's full report is in <code>repos/&lt;name&gt;.json</code> next to this file; the merged data is <code>campaign.json</code>. Fail threshold: ${esc(campaign.failOn)}.</footer>`,
  ].join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp(script?.cspSource)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ComfyDeploy V2 migration campaign</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
${script?.tag ?? ""}
</body>
</html>
`;
}

/** The countdown, or, once the date is behind us, plainly that it has passed. */
function cutoffBanner(campaign: Campaign): string {
  const c = campaign.cutoff;
  const headline = c.passed
    ? `No countdown left: the cutoff passed ${-c.daysLeft} ${plural(-c.daysLeft, "day", "days")} ago`
    : c.daysLeft === 0
      ? "The cutoff is today"
      : `${c.daysLeft} ${plural(c.daysLeft, "day", "days")} left until the cutoff`;
  return `<section class="cutoff ${c.passed ? "passed" : "ahead"}" id="cutoff"><strong>${esc(headline)}</strong>${esc(c.summary)}</section>`;
}

function tiles(campaign: Campaign): string {
  const t = campaign.totals;
  const pr = t.pullRequests;
  const tile = (value: number, label: string): string =>
    `<div class="tile"><b>${value}</b><span>${esc(label)}</span></div>`;
  return `<div class="tiles">${[
    tile(t.ready, "ready"),
    tile(t.notReady, "not ready"),
    tile(t.failed, "failed to run"),
    tile(t.findings.total, `V1 findings (${t.findings.error} errors)`),
    tile(pr.open ?? 0, "pull requests open"),
    tile(pr.merged ?? 0, "pull requests merged"),
  ].join("")}</div>`;
}

function readinessTable(rows: readonly CampaignRow[]): string {
  if (rows.length === 0) return `<p class="empty">No repository reports yet.</p>`;
  const head = [
    "Repository",
    "Readiness",
    "Errors",
    "Warnings",
    "Info",
    "Node pin",
    "Pull request",
    "Live check",
    "Scanned",
  ];
  const body = rows.map((row) => {
    const why =
      row.reasons.length > 0
        ? `<ul class="why reasons">${row.reasons.map((r) => `<li data-reason="${r.kind}">${esc(r.text)}</li>`).join("")}</ul>`
        : "";
    const count = (n: number, scanned: boolean): string =>
      scanned ? `<td class="n${n === 0 ? " zero" : ""}">${n}</td>` : `<td class="n zero">–</td>`;
    return [
      `<tr data-repo="${esc(row.name)}"${rowAttributes(row)}>`,
      `<td>${repoCell(row)}</td>`,
      `<td><span class="badge ${row.readiness}">${READINESS_LABEL[row.readiness]}</span>${why}</td>`,
      count(row.findings.error, row.scanned),
      count(row.findings.warning, row.scanned),
      count(row.findings.info, row.scanned),
      `<td class="node-pin">${esc(nodePinLabel(row.nodePins))}</td>`,
      `<td>${pullCell(row)}</td>`,
      `<td>${row.check ? `${esc(row.check.verdict.replace("_", " "))}<div class="why">${esc(row.check.checkedAt.slice(0, 10))}</div>` : "–"}</td>`,
      `<td class="nowrap">${esc(row.scannedAt.slice(0, 10))}${row.head ? `<div class="why"><code>${esc(row.head.slice(0, 8))}</code>${row.branch ? ` on ${esc(row.branch)}` : ""}</div>` : ""}</td>`,
      `</tr>`,
    ].join("");
  });
  return `<table id="readiness-table"><thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join("")}</tr></thead><tbody>\n${body.join("\n")}\n</tbody></table>`;
}

function repoCell(row: CampaignRow): string {
  const label = `<strong>${esc(row.name)}</strong>`;
  const web = /^https?:\/\//.test(row.url) ? row.url.replace(/\.git$/, "") : undefined;
  const where = `${row.path ? ` <code>${esc(row.path)}</code>` : ""}`;
  return `${web ? `<a href="${esc(web)}">${label}</a>` : label}${where}<div class="why">${esc(row.github ?? row.url)}</div>`;
}

function pullCell(row: CampaignRow): string {
  const pr = row.pullRequest;
  if (!pr || pr.state === "none") return "–";
  const label = pr.number !== undefined ? `#${pr.number}` : "";
  const link = pr.url && label ? `<a href="${esc(pr.url)}">${esc(label)}</a> ` : label ? `${esc(label)} ` : "";
  const checks = pr.checks ? `<span class="badge checks-${pr.checks}">${esc(CHECKS_LABEL[pr.checks])}</span>` : "";
  const review = pr.review ? `<span class="badge ${pr.review}">${esc(REVIEW_LABEL[pr.review])}</span>` : "";
  return `${link}${esc(pr.state)}${checks || review ? `<div class="why">${[checks, review].filter(Boolean).join(" ")}</div>` : ""}`;
}

function ruleChart(campaign: Campaign): string {
  const entries = Object.entries(campaign.totals.byRule).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (entries.length === 0) return `<p class="empty">No V1 findings in any repository.</p>`;
  const repos = (rule: string): number => campaign.repositories.filter((r) => (r.byRule[rule] ?? 0) > 0).length;
  return barChart(
    entries.map(([rule, value]) => ({
      label: rule,
      detail: `${titleOf(rule)} · ${repos(rule)} ${plural(repos(rule), "repository", "repositories")}`,
      value,
    })),
    { title: "V1 findings by rule across all repositories" },
  );
}

function burnDown(campaign: Campaign): string {
  const points = campaign.history.map((p) => ({
    at: p.at,
    value: p.findings.total,
    ...(p.partial?.length ? { partial: `${p.partial.join(", ")} failed, last known findings kept` } : {}),
  }));
  if (points.length === 0) return `<p class="empty">No merged runs yet.</p>`;
  const partial = points.filter((p) => p.partial).length;
  const note =
    (points.length === 1
      ? `<p class="empty">One merged run so far; each later merge adds a point.</p>`
      : `<p class="sub">${points.length} merged runs: ${points[0]!.value} → ${points[points.length - 1]!.value} V1 findings.</p>`) +
    (partial > 0
      ? `<p class="sub">Hollow points are partial: a repository's run failed there, so its last known findings are counted.</p>`
      : "");
  return lineChart(points, { title: "V1 findings over time across merged runs" }) + note;
}

/** Pull requests merged over time, from the points that recorded them (older history files did not). */
function mergedPulls(campaign: Campaign): string {
  const points = campaign.history
    .filter((p) => p.pullRequests !== undefined)
    .map((p) => ({ at: p.at, value: p.pullRequests!.merged ?? 0 }));
  if (points.length === 0) return `<p class="empty">No merged runs with pull requests yet.</p>`;
  const open = campaign.totals.pullRequests.open ?? 0;
  const note = `<p class="sub">${points[points.length - 1]!.value} merged, ${open} open.</p>`;
  return lineChart(points, { title: "Pull requests merged over time across merged runs" }) + note;
}

function titleOf(rule: string): string {
  return (RULE_IDS as readonly string[]).includes(rule) ? getRule(rule as RuleId).title : "rule from a newer version";
}

function stamp(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}
