/**
 * V1 run requests found on syntax trees (Go, PHP, C#, Ruby, Java, Kotlin,
 * Dart): the URL expression around each `/run` literal is evaluated through
 * constants, members, settings defaults, interpolation and concatenation,
 * in its file and across its package, and judged by what it resolves to:
 *
 * - the V1 host, or the exact V1 path on the V2 host: a V1 use;
 * - a base it cannot resolve, in a repository that holds the V1 base
 *   somewhere: a V1 use when it carries V1's signature (a POST, a run_id
 *   query), reported with that evidence, unless the file or class names
 *   another service or holds another service's host;
 * - the app's own routes and constant definitions: not requests.
 */
import type { Node } from "web-tree-sitter";
import { HOLE, type HostSet, isVendorHost, parseUrlText, type V1Endpoint, v1EndpointOf } from "../../../core/urls.js";
import { ENDPOINTS } from "../../../knowledge/migration.js";
import { chopperRequestsOf } from "../../../lang/tree/chopper.js";
import { clientBaseOf, joinBase } from "../../../lang/tree/client-bases.js";
import { PackageTrees } from "../../../lang/tree/package-trees.js";
import { urlPartsOf } from "../../../lang/tree/url-parts.js";
import { type ParsedFile, serverOf } from "./generated-servers.js";
import { type RunExpression, runExpressionsOf } from "../../../lang/tree/run-expressions.js";
import { refine } from "./run-id-keys.js";
import { namesOtherInferenceService } from "../../held-base.js";
import {
  ARGUMENT_LIST_NODES,
  CALL_NODES,
  DECLARATION_NODES,
  FUNCTION_NODES,
  lastName,
  MEMBER_NODES,
  NAME_NODES,
  nameText,
  STRING_NODES,
  VALUE_WRAPPERS,
} from "../../../lang/tree/syntax.js";
import { argumentsOf } from "../../../lang/tree/values.js";
import type { EndpointFacts } from "../../../core/facts.js";
import type { FixClass, RuleId } from "../../../rules/catalog.js";
import { endpointMessage, heldBaseMessage } from "../../messages.js";
import type { RepoFacts } from "../../scanner.js";
import { methodInStatement } from "./http-methods.js";

export interface TreeRunUse {
  start: number;
  end: number;
  /** The URL names the V2 host: the text transform cannot place a marker there yet, so it is left to the user. */
  onCurrentHost?: boolean;
  /** Where the URL is, when the finding is on its run_id line. */
  urlStart: number;
  /** The literal that writes `/run`, for the transform's edit. */
  runLiteral: { start: number; end: number };
  endpoint: V1Endpoint;
  methodKnown: boolean;
  /** Where the V1 base this request is taken to be on is set, when the request itself does not show it. */
  evidence?: { file: string; line: number };
  /** The run path comes from a constant defined elsewhere (`'$_base$_runPath'`): fix cannot edit it here. */
  pathElsewhere?: boolean;
}

export interface TreeRequests {
  uses: TreeRunUse[];
  /** Ranges of `/run` literals that are not requests (routes, constant definitions): the text rules leave them too. */
  quiet: Array<{ start: number; end: number }>;
}

/** What a tree use is reported as: the rule, the message (with the evidence when the base is the repository's), the fix class, the facts. */
export function treeUseFinding(use: TreeRunUse): {
  ruleId: RuleId;
  message: string;
  fix: FixClass | undefined;
  facts: EndpointFacts;
} {
  return {
    ruleId: use.endpoint === "get-run" ? "legacy-get-run" : "legacy-create-run",
    message: use.evidence ? heldBaseMessage(use.endpoint, use.evidence) : endpointMessage(use.endpoint),
    // On the V2 host the text transform edits the /run literal the facts name, as on the V1 host.
    fix:
      use.evidence || use.pathElsewhere || use.endpoint === "run-ambiguous" || !use.methodKnown ? "review" : undefined,
    facts: { kind: "endpoint", endpoint: use.endpoint, methodSeen: use.methodKnown, runLiteral: use.runLiteral },
  };
}

const trees = new WeakMap<RepoFacts, PackageTrees>();

function treesOf(repo: RepoFacts): PackageTrees {
  let found = trees.get(repo);
  if (!found) {
    found = new PackageTrees(repo.candidates ?? [], (file) => repo.read(file), repo.files);
    trees.set(repo, found);
  }
  return found;
}

/** Undefined when the file has no loaded grammar: the text rules then do all the work. */
export function treeRequestsOf(file: string, text: string, hosts: HostSet, repo: RepoFacts): TreeRequests | undefined {
  const packageTrees = treesOf(repo);
  const source = packageTrees.source(file, text);
  if (!source) return undefined;
  const uses: TreeRunUse[] = [];
  const quiet: TreeRequests["quiet"] = [];
  const expressions = [
    ...runExpressionsOf(source, packageTrees.values, packageTrees.runConstants(source)),
    ...chopperRequestsOf(source, packageTrees.values),
  ];
  // From a resolved path's declaration to its request, the names of the path are that request.
  const resolvedSpans = expressions.flatMap((e) =>
    e.resolved ? [[e.statement.startIndex, e.resolved.requestEnd]] : [],
  );
  for (const expression of expressions) {
    const { position, value, literal } = expression;
    if (
      !STRING_NODES.has(literal.type) &&
      resolvedSpans.some(([from, to]) => expression.node.startIndex >= from! && expression.node.endIndex <= to!)
    )
      continue;
    // A route, or a path constant (`RUN_PATH = "/run"`) whose uses are the requests.
    if (position === "route" || (position === "definition" && isRelative(value) && !value.startsWith(HOLE))) {
      quiet.push({ start: literal.startIndex, end: literal.endIndex });
      continue;
    }
    // A URL built from parts names its own host or base: the client's base does not apply to it.
    const ownsBase = urlPartsOf(expression.node) !== undefined;
    const base =
      isRelative(value) && !ownsBase ? clientBaseOf(expression.node, source, packageTrees.values) : undefined;
    const judged = base ? { ...expression, value: joinBase(base, value) } : expression;
    const use = judge(file, judged, text, hosts, repo, { source, trees: packageTrees });
    if (use) uses.push(use);
    // A URL built from parts on another service's host, or on the app's own address, is settled: not V1.
    else if ((ownsBase && parseUrlText(value, hosts).hostKind === "other") || readsOwnAddress(expression.node.text))
      quiet.push({ start: literal.startIndex, end: literal.endIndex });
  }
  return { uses, quiet };
}

function judge(
  file: string,
  expression: RunExpression,
  text: string,
  hosts: HostSet,
  repo: RepoFacts,
  parsed: ParsedFile,
): TreeRunUse | undefined {
  const { node, value } = expression;
  const method = methodOf(expression, text);
  const info = parseUrlText(value, hosts);
  const at = { start: expression.reportStart ?? node.startIndex, end: node.endIndex };
  const runLiteral = { start: expression.literal.startIndex, end: expression.literal.endIndex };
  const pathElsewhere = STRING_NODES.has(expression.literal.type) ? {} : { pathElsewhere: true };
  if (info.hostKind === "legacy" || info.hostKind === "current") {
    const endpoint = isVendorHost(info) ? v1EndpointOf(info, method) : undefined;
    if (!endpoint) return undefined;
    const onCurrentHost = info.hostKind === "current" ? { onCurrentHost: true } : {};
    return {
      ...refine(endpoint, at, expression, text),
      urlStart: at.start,
      runLiteral,
      methodKnown: method !== undefined,
      ...onCurrentHost,
      ...pathElsewhere,
    };
  }
  if (info.hostKind !== "unknown" && info.hostKind !== "relative") return undefined;
  const resolved = expression.resolved;
  if (resolved && isV1Path(value)) {
    // A generated client's server: what the app constructs it with, or the declaration nearest to it, decides.
    const server = serverOf(resolved, parsed, value, hosts);
    if (server === "another") return undefined;
    if (server) {
      const endpoint = v1EndpointOf(server.url, method);
      if (!endpoint) return undefined;
      const use = refine(endpoint, at, expression, text);
      return { ...use, urlStart: at.start, runLiteral, methodKnown: method !== undefined, evidence: server.at };
    }
  }
  if (
    !repo.legacyBase ||
    !isV1Path(value) ||
    namesAnotherService(file, expression) ||
    readsOwnAddress(expression.node.text) ||
    (!resolved && baseIsParameter(expression))
  )
    return undefined;
  const use = refine(
    v1EndpointOf({ ...info, apiPath: ENDPOINTS.createRun.v1.path }, method) ?? "run-ambiguous",
    at,
    expression,
    text,
  );
  // On a base this file does not show, only V1's signature counts.
  if (use.endpoint === "run-ambiguous") return undefined;
  return { ...use, urlStart: at.start, runLiteral, methodKnown: true, evidence: repo.legacyBase, ...pathElsewhere };
}

/**
 * A URL built on the address the app itself serves or was called on
 * (`new UriBuilder(app.Urls.First())`, Go's `Host: r.Host`, `Request.Host`):
 * a link to its own route, not a request to another service.
 */
function readsOwnAddress(text: string): boolean {
  return /\b(?:app\.Urls|(?:r|req|request|Request|HttpContext\.Request|ctx\.Request)\.(?:Host|URL|Url|Scheme|PathBase))\b/.test(
    text,
  );
}

/** `/run`, `run` or `/api/run`, after the unknown base, with or without a query. */
function isV1Path(value: string): boolean {
  const path = value.replace(/^\u0000+/, "").split("?")[0]!;
  return /^\/?(?:api\/)?run\/?$/.test(path);
}

function isRelative(value: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:\/\//i.test(value.replace(/^\u0000+/, ""));
}

function methodOf(expression: RunExpression, text: string): "GET" | "POST" | undefined {
  if (expression.annotatedMethod) return expression.annotatedMethod;
  const statement = expression.statement;
  const found = methodInStatement(
    text.slice(statement.startIndex, statement.endIndex),
    expression.node.startIndex - statement.startIndex,
  );
  if (found) return found;
  // `url = "#{base_url}/run"` and the request on a following line (`conn.post(url, …)`).
  const variable = assignedVariable(expression);
  if (variable) {
    const pattern = new RegExp(`(?<![\\w$@])${variable.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`);
    for (const line of text.slice(statement.endIndex).split("\n").slice(0, 6)) {
      const use = pattern.exec(line);
      const method = use ? methodInStatement(line, use.index) : undefined;
      if (method) return method;
    }
  }
  // A request class that declares its method once (`protected Method $method = Method::POST`).
  const owner = expression.owner?.text ?? "";
  const declared = new Set(
    [...owner.matchAll(/\b(?:Method|HttpMethod|RequestMethod)(?:::|\.)(GET|POST|Get|Post)\b/g)].map((m) =>
      m[1]!.toUpperCase(),
    ),
  );
  return declared.size === 1 ? ([...declared][0] as "GET" | "POST") : undefined;
}

/**
 * The base is a parameter of the enclosing function (`def perform(base_url, run_id)`):
 * the caller decides it, so the repository's V1 base is no evidence for it.
 */
function baseIsParameter(expression: RunExpression): boolean {
  const base = firstName(expression.node);
  if (!base || !NAME_NODES.has(base.type) || (base.parent && MEMBER_NODES.has(base.parent.type))) return false;
  for (let at = expression.node.parent; at; at = at.parent) {
    if (FUNCTION_NODES.has(at.type) || /lambda|function|method/.test(at.type)) {
      const parameters =
        at.childForFieldName("parameters") ?? at.namedChildren.find((c) => c !== null && /parameter/.test(c.type));
      return (
        parameters !== null &&
        parameters !== undefined &&
        new RegExp(`(?<![\\w$@])${base.text.replace(/[$]/g, "\\$")}\\b`).test(parameters.text)
      );
    }
  }
  return false;
}

function firstName(node: Node): Node | undefined {
  if (NAME_NODES.has(node.type)) return node;
  for (const child of node.namedChildren) {
    if (!child) continue;
    const found = firstName(child);
    if (found) return found;
  }
  return undefined;
}

/** The local variable a URL expression is assigned to (`url = …`, `var url = …`, `u, err := url.Parse(…)` aside). */
function assignedVariable(expression: RunExpression): string | undefined {
  let at = expression.node.parent;
  for (;;) {
    while (at && VALUE_WRAPPERS.has(at.type)) at = at.parent;
    // Go's `&url.URL{…}`, and a builder finished on the URL (`….addPathSegments("api/run").build()`).
    if (at?.type === "unary_expression" && at.text.startsWith("&")) {
      at = at.parent;
      continue;
    }
    const chained = at && MEMBER_NODES.has(at.type) ? at.parent : null;
    if (chained && CALL_NODES.has(chained.type) && URL_FINISHERS.test(calleeName(chained))) {
      at = chained.parent;
      continue;
    }
    // `uri = URI("#{base}/run")`, `u, err := url.Parse(base + "/run")`: the parsed URL is the same request's.
    const call = at && ARGUMENT_LIST_NODES.has(at.type) ? at.parent : null;
    if (
      !call ||
      !CALL_NODES.has(call.type) ||
      argumentsOf(call)[0]?.startIndex !== expression.node.startIndex ||
      !URL_PARSERS.test(calleeName(call))
    )
      break;
    at = call.parent;
  }
  if (!at || !DECLARATION_NODES.has(at.type)) return undefined;
  const left =
    at.childForFieldName("name") ??
    at.childForFieldName("left") ??
    at.namedChildren.find((c) => c?.type === "variable_declaration") ?? // Kotlin's `val url = …`
    at.namedChild(0);
  const name = left?.type === "expression_list" || left?.type === "variable_declaration" ? left.namedChild(0) : left;
  return name && /^[$@]?[A-Za-z_]\w*$/.test(name.text) ? name.text : undefined;
}

/** Calls on a URL or its builder that finish it or add its query. */
const URL_FINISHERS = /^(?:build|String|toString|Uri|addQueryParameter|addEncodedQueryParameter|setQueryParameter)$/;

/** Calls that turn a URL string into a URL value. */
const URL_PARSERS = /^(?:URI|URL|Uri|Url|HttpUrl|parse|Parse|ParseRequestURI|create|toUri|toURI|toHttpUrl|tryParse)$/;

function calleeName(call: Node): string {
  const callee =
    call.childForFieldName("function") ??
    call.childForFieldName("method") ??
    call.childForFieldName("name") ??
    call.namedChild(0);
  const name = callee && lastName(callee);
  return name ? nameText(name) : "";
}

/**
 * The file, its class or its namespace is another service's client: its path
 * or class names the service, or its code holds that service's host.
 */
function namesAnotherService(file: string, expression: RunExpression): boolean {
  const scope = expression.owner ?? expression.node.tree.rootNode;
  const names = `${file} ${scope.tree.rootNode.text.slice(0, 400)} ${expression.owner?.childForFieldName("name")?.text ?? ""}`;
  return namesOtherInferenceService(names) || holdsOtherHost(scope);
}

function holdsOtherHost(scope: Node): boolean {
  const stack: Node[] = [scope];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (STRING_NODES.has(node.type)) {
      const host = /^["'`@$]*https?:\/\/([a-z0-9.-]+)/i.exec(node.text)?.[1]?.toLowerCase();
      if (
        host &&
        !host.includes(HOLE) &&
        !/comfydeploy\.com$|^localhost$|^127\.|^0\.0\.0\.0$|example\.(?:com|org)$/.test(host)
      )
        return true;
      continue;
    }
    for (const child of node.namedChildren) if (child) stack.push(child);
  }
  return false;
}
