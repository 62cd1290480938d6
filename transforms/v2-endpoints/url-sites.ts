/**
 * Where a finding's URL sits in a file that is not JS/TS, read by the file's
 * kind: a Python string token, a JSON value, code in Markdown, or a string
 * segment of any other text. Also the line a review marker goes above, and
 * the V1-only create fields in the request body around a URL.
 */
import { posix } from "node:path";
import { factsOf } from "../../src/core/facts.js";
import type { Finding } from "../../src/core/finding.js";
import { BODY_LINES } from "../../src/core/run-path.js";
import { statementAround } from "../../src/lang/text/statements.js";
import type { TextFile } from "../../src/lang/text/text-file.js";
import { JsonUrls } from "./json.js";
import { PythonUrlSites } from "./python.js";
import { MarkdownCode, type Segment, segmentAt } from "./segments.js";
import { v1OnlyFields } from "./urls.js";

const MARKDOWN = new Set([".md", ".mdx", ".markdown"]);

/** Where a finding's URL is, and what it looks like there. */
export interface Site {
  segment: Segment;
  /** Index of the Python string token, for call-level checks. */
  pyIndex?: number;
}

export class UrlSites {
  readonly python: PythonUrlSites | undefined;
  readonly json: JsonUrls | undefined;
  readonly markdown: MarkdownCode | undefined;

  constructor(private readonly file: TextFile) {
    const ext = posix.extname(file.file).toLowerCase();
    if (ext === ".py" || ext === ".pyw") this.python = new PythonUrlSites(file.text);
    else if (file.syntax === "json") this.json = new JsonUrls(file.text);
    else if (MARKDOWN.has(ext)) this.markdown = new MarkdownCode(file);
  }

  /**
   * The `/run` literal a syntax-tree finding names, when its span is the
   * whole URL expression (`$base . '/run'`) or the run_id line: its body,
   * after any prefix and opening quote (`$"`, `@"`, triple quotes).
   */
  literalSite(finding: Finding): Site | undefined {
    const literal = factsOf(finding, "endpoint")?.runLiteral;
    if (!literal || this.python || this.json || this.markdown) return undefined;
    const opening = /^[$@]*("""|'''|["'`])/.exec(this.file.text.slice(literal.start, literal.end));
    if (!opening) return undefined;
    const segment = segmentAt(this.file, literal.start + opening[0].length);
    return segment.end <= literal.end ? { segment } : undefined;
  }

  /** The URL's segment at a finding, or undefined where the text is a comment, a docstring or prose. */
  siteAt(start: number, end: number, needsRunPath: boolean): Site | undefined {
    if (this.python) {
      const segment = this.python.segmentIn(start, end, needsRunPath);
      return segment && { segment, pyIndex: segment.index };
    }
    if (this.json) {
      const segment = this.json.segmentAt(start);
      return segment && { segment };
    }
    if (this.markdown ? !this.markdown.isCode(start) : this.file.kind === "docs" || this.file.isComment(start))
      return undefined;
    return { segment: segmentAt(this.file, start) };
  }

  /** The line a review marker for the URL at `offset` goes above. */
  markerLine(offset: number): number {
    if (this.python) return this.python.statementLine(offset);
    if (this.markdown) return this.markdown.markerLine(offset);
    return this.file.lineOf(statementAround(this.file, offset).start);
  }

  /** V1-only create fields in the request's body: the call (Python), the request object (JSON), or the statement and the lines around it. */
  bodyFields(site: Site): string[] {
    if (site.pyIndex !== undefined) return this.python!.bodyFields(site.pyIndex);
    const text = this.json
      ? (this.json.requestText(site.segment.start) ?? "")
      : this.requestContext(site.segment.start);
    const keys = [...text.matchAll(/\\?["']([a-z_]+)\\?["']\s*(?::|=>|,)/g)].map((m) => m[1]!);
    return v1OnlyFields(keys);
  }

  private requestContext(offset: number): string {
    const statement = statementAround(this.file, offset);
    const line = this.file.lineOf(offset);
    const from = this.file.lineStart(Math.max(1, line - BODY_LINES));
    const to = this.file.lineEnd(Math.min(this.file.lineCount, line + BODY_LINES));
    return `${statement.text}\n${this.file.text.slice(from, to)}`;
  }
}
