/**
 * The request a URL in a text file belongs to, read around it: its HTTP
 * method (from a request object, the statement, or in a shell script the
 * command sending it), the text its body is looked for in, and the file's
 * `run_id` queries near it. Shared by the V1 endpoint rules of the text scan.
 */
import { BODY_LINES } from "../../../core/run-path.js";
import { statementAround } from "../../../lang/text/statements.js";
import type { TextFile } from "../../../lang/text/text-file.js";
import { type HttpMethod, methodInStatement } from "./http-methods.js";
import type { RequestFacts } from "./other-host.js";
import { sendingCommandMethod } from "./program-bases.js";
import { findRunIdQueries, type RunIdQuery } from "./run-id-query.js";
import { type StructuredRequests, structuredRequestsOf } from "./structured-requests.js";

export class RequestsAround {
  private structuredCache: StructuredRequests | undefined | null = null;
  private runIdQueriesCache: RunIdQuery[] | undefined;

  constructor(
    private readonly source: TextFile,
    private readonly isShell: boolean,
  ) {}

  /** The file's run_id queries, found once. */
  runIdQueries(): RunIdQuery[] {
    this.runIdQueriesCache ??= findRunIdQueries(this.source);
    return this.runIdQueriesCache;
  }

  /** A run_id query built inside this statement (`.addQueryParameter("run_id", id)` in a builder chain). */
  runIdQueryIn(statement: { start: number; end: number }): boolean {
    return this.runIdQueries().some((q) => q.start >= statement.start && q.start < statement.end);
  }

  /** The first run_id query built on the BODY_LINES lines after `offset`, in a statement `accept` takes when given. */
  runIdQueryAfter(offset: number, accept?: (statement: string) => boolean): RunIdQuery | undefined {
    const line = this.source.lineOf(offset);
    return this.runIdQueries().find((q) => {
      const queryLine = this.source.lineOf(q.start);
      return (
        queryLine > line &&
        queryLine <= line + BODY_LINES &&
        (!accept || accept(statementAround(this.source, q.start).text))
      );
    });
  }

  /** The method of the request a URL belongs to: its request object (collections, workflows) or its statement. */
  methodAt(offset: number): HttpMethod | undefined {
    const request = this.structured()?.requestAt(offset);
    if (request?.method) return request.method;
    return this.statementMethod(offset);
  }

  /** The method the statement around `offset` names, or in a shell script the name of the command sending it. */
  private statementMethod(offset: number): HttpMethod | undefined {
    const statement = statementAround(this.source, offset);
    const method = methodInStatement(statement.text, offset - statement.start);
    return method ?? (this.isShell ? sendingCommandMethod(statement.text, offset - statement.start) : undefined);
  }

  /** The request's method and the text its body is looked for in: its request object, or its statement and the lines around. */
  requestFacts(offset: number): RequestFacts {
    const { source } = this;
    const request = this.structured()?.requestAt(offset);
    if (request) {
      return {
        method: request.method ?? this.methodAt(offset),
        context: source.text.slice(request.start, request.end),
      };
    }
    const statement = statementAround(source, offset);
    const line = source.lineOf(offset);
    // The lines around, up to another request: its body is not this one's (`curl … -d deployment_id` above a gateway's `curl -X POST …/api/run`).
    let first = source.lineOf(statement.start);
    let last = source.lineOf(Math.max(statement.start, statement.end - 1));
    while (first > Math.max(1, line - BODY_LINES) && !this.sendsOtherRequest(first - 1)) first--;
    while (last < Math.min(source.lineCount, line + BODY_LINES) && !this.sendsOtherRequest(last + 1)) last++;
    const from = source.lineStart(first);
    const to = source.lineEnd(last);
    return {
      method: this.statementMethod(offset),
      context: `${statement.text}\n${source.text.slice(from, to)}`,
    };
  }

  /** The line is part of a statement that sends a request of its own: a URL and an HTTP method in it. */
  private sendsOtherRequest(line: number): boolean {
    const statement = statementAround(this.source, this.source.lineStart(line));
    return /\b(?:https?|wss?):\/\/|\/run\b/i.test(statement.text) && methodInStatement(statement.text, 0) !== undefined;
  }

  /** The file's request objects (API collections, workflows), read once. */
  structured(): StructuredRequests | undefined {
    if (this.structuredCache === null) this.structuredCache = structuredRequestsOf(this.source);
    return this.structuredCache;
  }
}
