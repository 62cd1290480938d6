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
 *   `toV1RunOutputs` (V2 items are `MediaItem | string`, V1 kept `{ url,
 *   filename }` lists under images/files/gifs and strings under text).
 * - parseWebhookDataSafe → `[{ status, run_id, outputs }, undefined]` or
 *   `[undefined, Response(500)]`.
 */
import { JS_SDK_SHAPES } from "../../src/knowledge/migration.js";

const FAILURE = JS_SDK_SHAPES.webhookFailureStatus;

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

/** The helper function every adapted outputs list goes through (one per file). */
export const OUTPUTS_HELPER = "toV1RunOutputs";

function str(style: AdapterStyle, text: string): string {
  return `${style.quote}${text}${style.quote}`;
}

/** Indents every line but the first by one level (the text is nested one level deeper). */
function nest(text: string, style: AdapterStyle): string {
  return text.replace(/\n/g, `\n${style.indent}`);
}

/** Multi-line items, one per line, nested one level. */
function lines(items: readonly string[], style: AdapterStyle): string {
  const i = style.indent;
  return items.map((item, index) => `${i}${nest(item, style)}${index < items.length - 1 || style.trailingComma ? "," : ""}`).join("\n");
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

/** V2 `WorkflowRunModel` → the fields V1's getRun kept. */
export function getRunResult(style: AdapterStyle): string {
  const fields = [
    "id: run.id",
    "status: run.status",
    `outputs: ${OUTPUTS_HELPER}(run.outputs)`,
    "live_status: run.liveStatus",
    "progress: run.progress ?? 0",
  ];
  return `(run) => ({\n${lines(fields, style)}\n})`;
}

/** V2 `WorkflowRunWebhookBody` → V1's `[data, undefined]`. */
export function webhookResult(style: AdapterStyle): string {
  const tuple = `[{ status: body.status, run_id: body.runId, outputs: ${OUTPUTS_HELPER}(body.outputs) }, undefined]`;
  return `(body) => ${tuple}${style.typescript ? " as const" : ""}`;
}

/** A rejected webhook → V1's `[undefined, Response]` (500, "Invalid request"), with V1's extra headers when given. */
export function webhookFailure(style: AdapterStyle, headers: string | undefined): string {
  const init = [`status: ${FAILURE.status}`, `statusText: ${str(style, FAILURE.statusText)}`, ...(headers ? [`headers: ${headers}`] : [])].join(", ");
  const tuple = `[undefined, Response.json({ message: ${str(style, FAILURE.statusText)} }, { ${init} })]`;
  return `() => ${tuple}${style.typescript ? " as const" : ""}`;
}

/** The helper that turns V2 run outputs into V1's, declared once at the end of the file. */
export function outputsHelperSource(style: AdapterStyle): string {
  const i = style.indent;
  const c = style.trailingComma ? "," : "";
  const q = (text: string) => str(style, text);
  const key = (name: string) => (style.typescript ? `data[${q(name)}]` : `data.${name}`);
  const fileType = "{ url: string; filename: string }";
  const signature = style.typescript
    ? `function ${OUTPUTS_HELPER}(outputs: Array<{ data: Record<string, Array<${fileType} | string>> }> | undefined)`
    : `function ${OUTPUTS_HELPER}(outputs)`;
  const itemsParam = style.typescript ? `(items: Array<${fileType} | string> | undefined)` : "(items)";
  const isText = style.typescript ? `(item): item is string => typeof item === ${q("string")}` : `(item) => typeof item === ${q("string")}`;
  return [
    `/** V2 run outputs in the V1 SDK shape: images, files and gifs as { url, filename } lists, text as strings. */`,
    `${signature} {`,
    `${i}const files = ${itemsParam} =>`,
    `${i}${i}items?.flatMap((item) => (typeof item === ${q("string")} ? [] : [{ url: item.url, filename: item.filename }]));`,
    `${i}return (outputs ?? []).map(({ data }) => ({`,
    `${i}${i}data: {`,
    ...JS_SDK_SHAPES.outputFileLists.map((list) => `${i}${i}${i}${list}: files(${key(list)}),`),
    `${i}${i}${i}${JS_SDK_SHAPES.outputTextList}: ${key(JS_SDK_SHAPES.outputTextList)}?.filter(${isText})${c}`,
    `${i}${i}}${c}`,
    `${i}}));`,
    `}`,
  ].join("\n");
}
