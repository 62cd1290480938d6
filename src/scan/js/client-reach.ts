/**
 * Whether a repository module can hand out the V1 SDK or a V1 client (an
 * export, an instance, a factory, a copy of the class): its text names the
 * SDK or looks like a copy of the client class, or a module it imports (or
 * re-exports) can.
 * Decided on the text, so that following a name out of a file never parses
 * a library module (moment.js, a mongodb driver) only to learn it holds no
 * client.
 */
import { type FileContext, unwrap } from "./file-context.js";
import { ts } from "./typescript-api.cjs";
import { importSpecifiers } from "../../lang/js/module-syntax.js";
import { JS_SDK, V1_SDK_EXPORTS } from "../../knowledge/migration.js";
import { DISTINCTIVE_METHOD_NAMES } from "../needles.js";
import type { Definition, Values } from "./values.js";
import { COMFY_NAME } from "./vendored-client.js";

/** The class-name prefix and the V1 SDK's exports; the package as a specifier (the host has the same letters). */
const SDK_NAMES = ["ComfyDeploy", ...V1_SDK_EXPORTS.map((e) => e.v1)];
const SDK_SPECIFIER = new RegExp(`["'\`]${JS_SDK.packageName}(?:/[^"'\`]*)?["'\`]`);
/**
 * What a copy of the client class shows in its text (VendoredClients.recognise
 * decides on the parsed class: V1 method names, two of them or one in a class
 * named like "comfy", and V1's status URL): `run_id`, with a V1 method name
 * other than `run`, a member named `run` (overloads count there as two), or a
 * class named like "comfy".
 */
const CLIENT_METHOD = new RegExp(`(?<![\\w$])(?:${DISTINCTIVE_METHOD_NAMES.join("|")})(?![\\w$])`);
const RUN_MEMBER = /^[ \t]*(?:(?:public|private|protected|static|async|override)\s+)*run\s*[(<]/m;
const COMFY_CLASS = new RegExp(`\\bclass\\s+[\\w$]*${COMFY_NAME.source}`, "i");
/** Modules passed on inside modules (`lib.render.comfy`): a few levels at most. */
const MAX_MODULE_DEPTH = 8;
const RUN_ID = /(?<![\w$])run_id(?![\w$])/;

/**
 * V1's request shape in the text (`/run`, or a quoted `"run"` as a prefixed
 * client such as got's `prefixUrl` spells it, beside `run_id` or
 * `deployment_id`): a module that may send V1 requests, whatever its names.
 */
const RUN_PATH = /\/run(?![\w-])|["'`]run["'`?]/;
const V1_KEY = /(?<![\w$])(?:run_id|deployment_id)(?![\w$])/;

function mayDefineClient(text: string): boolean {
  return (
    SDK_NAMES.some((name) => text.includes(name)) ||
    SDK_SPECIFIER.test(text) ||
    (RUN_ID.test(text) && (CLIENT_METHOD.test(text) || RUN_MEMBER.test(text) || COMFY_CLASS.test(text))) ||
    (RUN_PATH.test(text) && V1_KEY.test(text))
  );
}

export class ClientReach {
  /** Per module, for the whole scan: the module that makes it reach a client (itself, or one it imports), or false. */
  private readonly known = new Map<string, string | false>();
  /** The file whose analysis is under way: names followed out of it never count it as a source (its own analysis sees its client). */
  private analysing: string | undefined;
  /** Modules that reach a client only through `analysing`, settled for that file's analysis alone. */
  private readonly onlyThroughAnalysed = new Set<string>();
  /** For Values: a name is followed into a module only if the module can reach a client. */
  private readonly enters = (file: string): boolean => this.canReach(file);

  constructor(private readonly values: Values) {}

  /**
   * The file whose names are followed from now on, with the client modules
   * the scan proved before it was found (see `prove`). A library module that
   * reaches a client only by importing this file back (mongodb's modules
   * import each other in a ring) holds no client the file's own analysis
   * would not report, and following names into it would parse half the
   * library.
   */
  beginFile(file: string, clientModules?: readonly string[]): void {
    if (clientModules) this.prove(clientModules);
    if (this.analysing === file) return;
    this.analysing = file;
    this.onlyThroughAnalysed.clear();
  }

  /**
   * Modules the scan has proved to export a client (the importer follow-up
   * hands them on): they reach one whatever their text shows. Modules settled
   * as unreachable before may import them, so those are asked again.
   */
  prove(files: Iterable<string>): void {
    let added = false;
    for (const file of files) {
      if (this.known.get(file) === file) continue;
      this.known.set(file, file);
      added = true;
    }
    if (!added) return;
    for (const [file, source] of this.known) if (source === false) this.known.delete(file);
    this.onlyThroughAnalysed.clear();
  }

  /** What a name refers to; undefined when it is imported from a module that cannot reach a client. */
  definitionOf(identifier: ts.Identifier, context: FileContext): Definition | undefined {
    return this.values.definitionOf(identifier, context, 0, this.enters);
  }

  /** A module's export, when the module can reach a client at all. */
  exportDefinition(file: string, name: string): Definition | undefined {
    return this.canReach(file) ? this.values.exportDefinition(file, name) : undefined;
  }

  /** What a name or a module's member (`render.RenderApi` of `import * as render`) refers to. */
  definitionOfName(expr: ts.Expression, context: FileContext): Definition | undefined {
    if (ts.isIdentifier(expr)) return this.definitionOf(expr, context);
    if (!ts.isPropertyAccessExpression(expr)) return undefined;
    const module = this.moduleOf(unwrap(expr.expression), context);
    return module === undefined ? undefined : this.exportDefinition(module, expr.name.text);
  }

  /**
   * The repository module an expression names: a namespace import or require
   * (`comfy`), or a module passed on whole (`lib.comfy` for
   * `exports.comfy = require("./comfy")` or `export * as comfy from`).
   */
  moduleOf(expr: ts.Expression, context: FileContext, depth = 0): string | undefined {
    if (depth > MAX_MODULE_DEPTH) return undefined;
    if (ts.isIdentifier(expr)) {
      const def = this.definitionOf(expr, context);
      if (def?.kind === "module") return def.file;
      // `const { comfy } = services`: a member of a module, destructured.
      const element = def?.kind === "node" && ts.isBindingElement(def.node) ? def.node : undefined;
      const holder = element?.parent.parent;
      if (!element || !holder || !ts.isVariableDeclaration(holder) || !holder.initializer) return undefined;
      const owner = this.moduleOf(unwrap(holder.initializer), def!.context, depth + 1);
      const key = element.propertyName ?? element.name;
      if (owner === undefined || !ts.isIdentifier(key)) return undefined;
      const member = this.exportDefinition(owner, key.text);
      return member?.kind === "module" ? member.file : undefined;
    }
    if (!ts.isPropertyAccessExpression(expr)) return undefined;
    const owner = this.moduleOf(unwrap(expr.expression), context, depth + 1);
    const def = owner === undefined ? undefined : this.exportDefinition(owner, expr.name.text);
    return def?.kind === "module" ? def.file : undefined;
  }

  /** A search over the import graph from the module, stopping at the first module that may define a client. */
  canReach(file: string): boolean {
    const settled = this.settled(file);
    if (settled !== undefined) return settled;
    const visited = new Set<string>([file]);
    const queue = [file];
    let source: string | undefined;
    let throughAnalysed = false;
    for (let i = 0; i < queue.length && source === undefined; i++) {
      const next = queue[i]!;
      const text = this.values.project.textOf(next);
      if (next === this.analysing) {
        // Its imports still count; it does not, as a source.
        throughAnalysed = this.known.get(next) === next || (text !== undefined && mayDefineClient(text));
      } else {
        const known = this.known.get(next);
        if (known === false) continue;
        if (known !== undefined && known !== this.analysing) {
          source = known;
          continue;
        }
        if (text === undefined) continue;
        if (mayDefineClient(text)) {
          source = next;
          continue;
        }
      }
      if (text === undefined) continue;
      // Re-exports are imports too: `export * from "./client"` reaches what ./client reaches.
      for (const specifier of importSpecifiers(text)) {
        const target = this.values.project.resolveModule(next, specifier);
        if (target !== undefined && !visited.has(target)) {
          visited.add(target);
          queue.push(target);
        }
      }
    }
    if (source !== undefined) {
      this.known.set(file, source);
      return true;
    }
    // Nothing the search saw reaches a client but perhaps the analysed file: settled for this file's analysis only.
    if (throughAnalysed) {
      for (const seen of visited) if (seen !== this.analysing) this.onlyThroughAnalysed.add(seen);
      return false;
    }
    // No module the search saw reaches a client, or the search would have stopped: all of them are settled.
    for (const seen of visited) this.known.set(seen, false);
    return false;
  }

  /** What is known of a module for the current file's analysis (undefined: search). */
  private settled(file: string): boolean | undefined {
    const source = this.known.get(file);
    if (source === undefined) return this.onlyThroughAnalysed.has(file) ? false : undefined;
    if (source === false) return false;
    // Known to reach a client only through the file under analysis: asked again without it.
    return source === this.analysing && file !== this.analysing ? undefined : true;
  }
}
