/**
 * Local copies of the V1 client class. Apps paste the V1 SDK's client into
 * their own tree (`lib/comfy-deploy.ts`) and SDK authors implement it: the
 * class is recognised by its shape, not its name, because a local class
 * called ComfyDeployClient may as well wrap V2.
 *
 * The shape: V1 client method names (`run`, `getRun`, …) and, inside the
 * class, a URL with V1's status signature (`{base}/run?run_id=`) on the
 * vendor's host, another host or a base the scanner cannot resolve, or a
 * relative `/run?run_id=` path in a class that holds the V1 host itself;
 * or, whatever its names, a member that sends a V1 request (V1Senders).
 */
import { posix } from "node:path";
import { ts } from "./typescript-api.cjs";
import { ENDPOINTS } from "../../knowledge/migration.js";
import {
  findLegacyHostMentions,
  type HostSet,
  parseUrlText,
  v1EndpointOf,
  v1SignatureOnUnknownBase,
} from "../../core/urls.js";
import type { FileContext } from "./file-context.js";
import type { Values } from "./values.js";
import type { ClientReach } from "./client-reach.js";
import { V1_METHOD_NAMES } from "./v1-sdk.js";
import { classHoldsConnection, type V1Senders } from "./v1-senders.js";

/** A class named like this needs only one V1 method name to count as a copy of the client. */
export const COMFY_NAME = /comfy/i;

export interface VendoredClass {
  /** The host its V1 URLs go to when that host is known and is not the vendor's (a white-label deployment). */
  otherHost?: string;
}

export class VendoredClients {
  private readonly memo = new Map<ts.Node, VendoredClass | null>();

  constructor(
    private readonly values: Values,
    private readonly hosts: HostSet,
    private readonly reach: ClientReach,
    private readonly senders: V1Senders,
  ) {}

  forget(): void {
    this.memo.clear();
  }

  /** The class's V1 traits when it is a copy of the V1 client, else undefined. */
  classInfo(cls: ts.ClassLikeDeclaration, context: FileContext): VendoredClass | undefined {
    const cached = this.memo.get(cls);
    if (cached !== undefined) return cached ?? undefined;
    this.memo.set(cls, null); // cycle guard while its URLs are evaluated
    const info = this.recognise(cls, context);
    this.memo.set(cls, info ?? null);
    return info;
  }

  private recognise(cls: ts.ClassLikeDeclaration, context: FileContext): VendoredClass | undefined {
    // A client holds its connection settings; a class without them is the app's own service (local-client.ts).
    if (!classHoldsConnection(cls)) return undefined;
    // Whatever its members are called: a class whose methods send V1 requests is a V1 client (`queueRun()` posting to V1's /run).
    return this.byShape(cls, context) ?? this.senders.classSends(cls, context);
  }

  private byShape(cls: ts.ClassLikeDeclaration, context: FileContext): VendoredClass | undefined {
    const methods = cls.members.filter((m) => m.name && ts.isIdentifier(m.name) && V1_METHOD_NAMES.has(m.name.text));
    const named = cls.name !== undefined && COMFY_NAME.test(cls.name.text);
    if (methods.length === 0 || (methods.length < 2 && !named)) return undefined;
    let found: VendoredClass | undefined;
    let relativeStatusPath = false;
    for (const expr of context.urlExpressions) {
      if (expr.pos < cls.pos || expr.end > cls.end) continue;
      const url = this.values.stringValue(expr, context, null);
      const info = parseUrlText(url, this.hosts);
      const isStatusCall = info.queryKeys.has(ENDPOINTS.getRun.v1.query);
      if (!isStatusCall) continue;
      if (info.hostKind === "legacy" && v1EndpointOf(info, "GET") === "get-run") return {};
      if (info.hostKind === "other" && v1EndpointOf(info, "GET") === "get-run") found = { otherHost: info.host! };
      else if (v1SignatureOnUnknownBase(url, "GET", new Set()) === "get-run") found ??= {};
      else if (info.hostKind === "relative" && url.trim().startsWith(`${ENDPOINTS.getRun.v1.path}?`))
        relativeStatusPath = true;
    }
    // `this.send("/run?run_id=" + id)` on a base the class itself defaults to the V1 host.
    if (!found && relativeStatusPath && this.holdsLegacyHost(cls, context)) return {};
    return found;
  }

  private holdsLegacyHost(cls: ts.ClassLikeDeclaration, context: FileContext): boolean {
    return context.stringParts.some(
      (part) =>
        part.pos >= cls.pos &&
        part.end <= cls.end &&
        findLegacyHostMentions((part as ts.LiteralLikeNode).text, this.hosts).length > 0,
    );
  }

  /**
   * True when `file` belongs to the package that publishes the class (a
   * library with `files`, `types` or `exports` that is not private): its own
   * tests and examples are not an app to migrate, the class is.
   */
  isOwnLibrary(classFile: string, file: string): boolean {
    const home = this.libraryRoot(posix.dirname(classFile));
    return home !== undefined && (home === "." || file === home || file.startsWith(`${home}/`));
  }

  private libraryRoot(dir: string): string | undefined {
    const project = this.values.project;
    for (let at = dir; ; at = posix.dirname(at)) {
      const manifest = at === "." || at === "" ? "package.json" : `${at}/package.json`;
      if (project.files.has(manifest)) {
        try {
          const json = JSON.parse(project.textOf(manifest) ?? "") as Record<string, unknown>;
          const library =
            json.private !== true &&
            (json.files !== undefined ||
              json.types !== undefined ||
              json.typings !== undefined ||
              json.exports !== undefined);
          return library ? (at === "" ? "." : at) : undefined;
        } catch {
          return undefined;
        }
      }
      if (at === "." || at === "" || at === "/") return undefined;
    }
  }

  /** The vendored class an expression names (`ComfyDeployClient` imported from `@/lib/comfy-deploy`), if any. */
  classOf(
    expr: ts.Expression,
    context: FileContext,
    depth = 0,
  ): { cls: ts.ClassLikeDeclaration; info: VendoredClass } | undefined {
    if (depth > 8) return undefined;
    const def = this.reach.definitionOfName(expr, context);
    if (def?.kind !== "node") return undefined;
    let node: ts.Node = def.node;
    if (ts.isVariableDeclaration(node) && node.initializer) {
      if (ts.isIdentifier(node.initializer)) return this.classOf(node.initializer, def.context, depth + 1);
      node = node.initializer;
    }
    if (!ts.isClassDeclaration(node) && !ts.isClassExpression(node)) return undefined;
    const info = this.classInfo(node, def.context);
    return info ? { cls: node, info } : undefined;
  }
}
