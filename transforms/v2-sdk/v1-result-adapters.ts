/**
 * Source text of the adapters that keep the V1 contract on top of a V2 call
 * ("adapt at the call site"): the V1 JS SDK answered in snake_case and turned
 * every failure into `console.error` + `null` (or, for webhooks, into a 500
 * `Response`); the V2 SDK answers in camelCase and throws. Each adapter maps
 * the V2 answer back to exactly the V1 shape, field by field:
 *
 * - run → `{ run_id }`: `runId` is the same uuid.
 * - getRun → `{ id, status, outputs, live_status, progress }`: `liveStatus`
 *   keeps null; `progress` defaults to 0 like V1's schema; outputs go through
 *   the compat module's `toV1RunOutputs` (V2 items are `MediaItem | string`,
 *   V1 kept `{ url, filename }` lists under images/files/gifs and strings
 *   under text).
 */

export interface AdapterStyle {
  /** TypeScript files get type annotations and `as const`; JavaScript files none. */
  typescript: boolean;
  /** The quote character the file uses for strings. */
  quote: '"' | "'";
  /** One level of indentation in the file. */
  indent: string;
  /** The file ends multi-line lists with a comma. */
  trailingComma: boolean;
}

/** Indents every line but the first by one level (the text is nested one level deeper). */
function nest(text: string, style: AdapterStyle): string {
  return text.replace(/\n/g, `\n${style.indent}`);
}

/** Multi-line items, one per line, nested one level. */
function lines(items: readonly string[], style: AdapterStyle): string {
  const i = style.indent;
  return items
    .map((item, index) => `${i}${nest(item, style)}${index < items.length - 1 || style.trailingComma ? "," : ""}`)
    .join("\n");
}

/** `call.then(onResult, onFailure)` with one handler per line; lines after the first are relative to the call's line. */
export function thenAdapter(call: string, onResult: string, onFailure: string, style: AdapterStyle): string {
  return `${call}.then(\n${lines([onResult, onFailure], style)}\n)`;
}

/** V1 logged the error and answered null. */
export function failureToNull(style: AdapterStyle): string {
  const i = style.indent;
  return `(${style.typescript ? "error: unknown" : "error"}) => {\n${i}console.error(error);\n${i}return null;\n}`;
}

/** V2 `CreateRunResponse` → V1 `{ run_id }`. */
export function queueResult(): string {
  return "(res) => ({ run_id: res.runId })";
}

/** V2 `WorkflowRunModel` → the fields V1's getRun kept; `compat` is the compat module's local name. */
export function getRunResult(style: AdapterStyle, compat: string): string {
  const fields = [
    "id: run.id",
    "status: run.status",
    `outputs: ${compat}.toV1RunOutputs(run.outputs)`,
    "live_status: run.liveStatus",
    "progress: run.progress ?? 0",
  ];
  return `(run) => ({\n${lines(fields, style)}\n})`;
}
