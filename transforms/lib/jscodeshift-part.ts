/**
 * Runs a jscodeshift transform in-process on one JS/TS file: picks the parser
 * from the extension and hands the transform the scan's findings and a
 * reporter for what it rewrote or marked. A file the parser cannot take
 * (minified, nested too deep, or a parse the codemod gave up on) is refused
 * with UnparsableFile, never passed over as if it needed no change.
 */
import type { API, FileInfo, JSCodeshift, Options } from "jscodeshift";
import type { Finding } from "../../src/core/finding.js";
import type { HostSet } from "../../src/core/urls.js";
import type { RuleId } from "../../src/rules/catalog.js";
import { isJsFile, jsDialectOf } from "../../src/platform/file-types.js";
import { astLimitProblem, UnparsableFile } from "./ast-limits.js";
import { matchSemicolons, restoreDirectives } from "./source-style.js";
import type { FileFix, FixContext, FixEvent, TransformPart } from "../types.js";

/** Options every transform in transforms/ receives. */
export interface MigrationOptions extends Options {
  hosts: HostSet;
  findings: readonly Finding[];
  report: (event: FixEvent) => void;
  /** Asks for a support module in the file's package (see FixContext). */
  useSupportModule: FixContext["useSupportModule"];
}

export function parserFor(file: string): "ts" | "tsx" | "babylon" {
  const dialect = jsDialectOf(file);
  return dialect === "ts" || dialect === "tsx" ? dialect : "babylon";
}

type JscodeshiftCore = typeof import("jscodeshift");
let core: Promise<JscodeshiftCore> | undefined;
/** jscodeshift bound to each parser, made once: binding copies every node type and builder onto a new function. */
const bound = new Map<ReturnType<typeof parserFor>, JSCodeshift>();

async function loadJscodeshift(): Promise<JscodeshiftCore> {
  core ??= import("jscodeshift").then(
    (m) => ((m as unknown as { default?: JscodeshiftCore }).default ?? m) as JscodeshiftCore,
  );
  return core;
}

async function jscodeshiftFor(parser: ReturnType<typeof parserFor>): Promise<JSCodeshift> {
  const jscodeshift = await loadJscodeshift();
  let j = bound.get(parser);
  if (!j) {
    j = jscodeshift.withParser(parser);
    bound.set(parser, j);
  }
  return j;
}

/** A jscodeshift transform written against the options above. */
export type Codemod = (
  file: FileInfo,
  api: API,
  options: MigrationOptions,
) => string | null | undefined | Promise<string | null | undefined>;

/**
 * The part of a transform for JS/TS files (not declaration files): one
 * jscodeshift codemod, run only on files with findings of its rules.
 */
export function jscodeshiftPart(codemod: Codemod, rules: readonly RuleId[]): TransformPart {
  const claimed: ReadonlySet<string> = new Set(rules);
  return {
    appliesTo: (file) => isJsFile(file) && !file.endsWith(".d.ts"),
    async apply(text: string, context: FixContext): Promise<FileFix> {
      if (!context.findings.some((f) => claimed.has(f.ruleId))) return { text, events: [] };
      const limit = astLimitProblem(text);
      if (limit) throw new UnparsableFile(limit);
      const parsing = await jscodeshiftFor(parserFor(context.file));
      let parseFailure: unknown;
      // The codemod's j(source), watched: a parse it catches and gives up on still refuses the file.
      const j = new Proxy(parsing, {
        apply(target, self, args: unknown[]) {
          try {
            return Reflect.apply(target, self, args);
          } catch (error) {
            parseFailure ??= error;
            throw error;
          }
        },
      });
      const events: FixEvent[] = [];
      const api: API = { jscodeshift: j, j, stats: () => undefined, report: () => undefined };
      const file: FileInfo = { path: context.file, source: text };
      const options: MigrationOptions = {
        hosts: context.hosts,
        findings: context.findings,
        report: (e) => events.push(e),
        useSupportModule: context.useSupportModule,
      };
      const output = await codemod(file, api, options);
      if (parseFailure !== undefined && (typeof output !== "string" || output === text)) {
        throw new UnparsableFile(
          `could not be parsed: ${String((parseFailure as Error).message ?? parseFailure).split("\n")[0]}`,
        );
      }
      return {
        text: typeof output === "string" ? restoreDirectives(text, matchSemicolons(text, output)) : text,
        events,
      };
    },
  };
}
