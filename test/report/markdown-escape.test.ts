/**
 * The Markdown report with hostile excerpts, messages and paths, rendered by
 * a GFM parser (micromark with its GFM extension, raw HTML allowed as on
 * GitHub): every table keeps its columns, every excerpt reads back verbatim
 * inside its <code>, and no HTML, link or image syntax from the scanned code
 * gets through.
 */
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { describe, expect, it } from "vitest";
import type { Finding } from "../../src/core/finding.js";
import { cellMarkdown, codeSpan, fencedBlock, htmlCode, inlineText } from "../../src/core/markdown-escape.js";
import { cutoffStatus } from "../../src/knowledge/cutoff.js";
import { renderMarkdown } from "../../src/report/markdown.js";
import type { Report } from "../../src/report/model.js";

function html(markdown: string): string {
  return micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}

/** What a browser shows for text: the HTML-escaped form micromark writes. */
function shown(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** What a browser shows for HTML text: entities decoded. */
function decoded(htmlText: string): string {
  return htmlText
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

const HOSTILE = [
  'const path = "C:\\\\temp\\\\";  // ends in a backslash\\',
  "fetch(`${BASE}/run`, { method: `POST` })",
  "const md = '``` fenced ``` and `` double ``';",
  "const table = a | b || c; // | pipes",
  '<img src=x onerror="alert(1)"> </details><script>alert(1)</script>',
  "*bold* _em_ [link](javascript:alert(1)) ![img](x.png) ~~gone~~ $x$",
  "&amp; &lt;b&gt; &#124; already-escaped",
];

function finding(excerpt: string, i: number): Finding {
  return {
    ruleId: "legacy-base-url",
    severity: "error",
    file: i === 0 ? "src/we`ird|<b>name\\.ts" : `src/f${i}.ts`,
    line: i + 1,
    column: 1,
    endLine: i + 1,
    endColumn: 2,
    message: `V1 host in <b>${excerpt.slice(0, 12)}</b>: answers \`{ a | b }\` | see [x](javascript:alert(1))`,
    fix: "auto",
    excerpt,
  };
}

const findings = HOSTILE.map(finding);
const report: Report = {
  tool: { name: "comfydeploy-migrate", version: "0.0.0" },
  root: "/r",
  findings,
  suppressed: [],
  baselined: [],
  skipped: [],
  stats: { listed: 7, candidates: 7, analysed: 7, textOnly: 0, listing: "git" },
  cutoff: cutoffStatus(new Date("2025-03-01T00:00:00Z")),
  command: "npx comfydeploy-migrate scan --exclude '```\n```\n<b>x</b>'",
};

describe("the Markdown report with hostile text", () => {
  const rendered = html(renderMarkdown(report));

  it("keeps every detail table at five columns", () => {
    const rows = [...rendered.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => m[1]!);
    const detailRows = rows.filter((r) => r.includes("legacy-base-url") && !r.includes('href="https://github.com'));
    expect(detailRows.length).toBeGreaterThanOrEqual(HOSTILE.length);
    for (const row of detailRows.filter((r) => r.includes("<br />") || r.includes("<br>"))) {
      expect(row.match(/<td[ >]/g)).toHaveLength(5);
    }
  });

  it("shows each excerpt verbatim in its own <code>", () => {
    for (const excerpt of HOSTILE) expect(rendered).toContain(`<code>${shown(excerpt)}</code>`);
  });

  it("lets no HTML, link or image from the scanned text through", () => {
    // URLs in text still become links (GitHub's autolinks); Markdown link syntax from the scanned text does not.
    expect(rendered).not.toMatch(/<img|<script|<b>|href="javascript/);
    expect(rendered.match(/<details>/g)?.length).toBe(rendered.match(/<\/details>/g)?.length);
  });

  it("keeps the message's own code spans, pipes and all", () => {
    expect(rendered).toContain("answers <code>{ a | b }</code> | see [x](javascript:alert(1))");
  });

  it("shows a hostile path verbatim in its summary (an HTML block: the browser decodes the entities)", () => {
    const summaries = [...rendered.matchAll(/<summary><code>([^<]*)<\/code> \(1\)<\/summary>/g)].map((m) =>
      decoded(m[1]!),
    );
    expect(summaries).toContain("src/we`ird|<b>name\\.ts");
  });

  it("keeps the reproduce command in one code block", () => {
    expect(rendered).toContain(`<code class="language-sh">${shown(report.command)}\n</code>`);
  });
});

describe("escapes by context", () => {
  const one = (md: string): string => html(md).trim();

  it("htmlCode: a trailing backslash cannot escape </code>, a backtick cannot open a span", () => {
    expect(one(`a ${htmlCode("x\\")} b \`c\``)).toBe("<p>a <code>x\\</code> b <code>c</code></p>");
    expect(one(`a ${htmlCode("`x")} b \`c\``)).toBe("<p>a <code>`x</code> b <code>c</code></p>");
  });

  it("inlineText: no HTML, link or cell break, newlines folded", () => {
    expect(one(inlineText("<i>x</i> [a](b) | c\nd\\"))).toBe("<p>&lt;i&gt;x&lt;/i&gt; [a](b) | c d\\</p>");
  });

  it("cellMarkdown: code spans survive in a table cell, pipes inside them too", () => {
    const table = `| a | b |\n|---|---|\n| ${cellMarkdown("use `x | y` or <z> | w")} | 2 |`;
    expect(one(table)).toContain("<td>use <code>x | y</code> or &lt;z&gt; | w</td>\n<td>2</td>");
  });

  it("codeSpan and fencedBlock: a fence longer than any backtick run inside", () => {
    expect(codeSpan("a``b")).toBe("```a``b```");
    expect(one(codeSpan("`x`"))).toBe("<p><code>`x`</code></p>");
    expect(fencedBlock("```\nnot the end\n````", "sh")).toBe("`````sh\n```\nnot the end\n````\n`````");
  });
});
