/**
 * Where a parsed file writes a `/run` path, and what it is there: the whole
 * URL expression around the literal (interpolation, concatenation, format
 * calls), the value it evaluates to, and its position: a request, the app's
 * own route (annotations, attributes, decorators, router calls), or a
 * constant's definition (its uses are the requests).
 */
import type { Node } from "web-tree-sitter";
import { HOLE } from "../../core/urls.js";
import type { TreeSource } from "./declarations.js";
import { type ResolvedPath, resolvedPathOf } from "./resolved-paths.js";
import { helperCallAround } from "./helper-calls.js";
import { namedPathStart, urlPartsAround } from "./url-parts.js";
import { calledName, stringCallAround, type TreeValues } from "./values.js";
import {
  ARGUMENT_LIST_NODES,
  CALL_NODES,
  CONCAT_OPERATORS,
  DECLARATION_NODES,
  INTERPOLATION_NODES,
  lastName,
  MEMBER_NODES,
  NAME_NODES,
  nameText,
  PATH_JOIN_METHODS,
  STRING_NODES,
  STRING_TEXT_NODES,
  VALUE_WRAPPERS,
} from "./syntax.js";

export type RunPosition = "request" | "route" | "definition";

export interface RunExpression {
  /** The whole URL expression. */
  node: Node;
  /** The literal that writes `run`. */
  literal: Node;
  value: string;
  position: RunPosition;
  /** The method an annotation (Retrofit's `@POST("run")`) or the request's constructor (`http.NewRequest("POST", …)`) names. */
  annotatedMethod?: "GET" | "POST";
  /** A path variable resolved against a server in its function (generated clients): the server and where the request is built. */
  resolved?: ResolvedPath;
  /** The statement the expression is in. */
  statement: Node;
  /** Where a finding about it starts, when not at the expression: the path segment's call in a builder chain written over lines. */
  reportStart?: number;
  /** The class, object or module it is in. */
  owner: Node | undefined;
}

/** A literal that may write the run path: `/run`, `run` or `/api/run`, maybe with a query. */
const RUN_LITERAL = /(?:^|[/}$)\]"'`])(?:api\/)?run\/?(?:\?[^"'`]*)?["'`]*$/;
/** Client annotations that name the method and path of a request (Retrofit, Feign's `@RequestLine` aside). */
const CLIENT_ANNOTATIONS = /^(?:GET|POST|PUT|DELETE|PATCH|HTTP)$/;
/**
 * The same verbs in any letter case, on an interface's methods: Refit's and
 * RestEase's `[Post("/run")]`, Micronaut's declarative `@Post`. An interface
 * declares a client; controllers are classes (and ASP.NET's are `[HttpPost]`).
 */
const INTERFACE_CLIENT_ANNOTATIONS = /^(?:get|post|put|delete|patch)$/i;
const ANNOTATION_NODES = new Set(["annotation", "marker_annotation", "attribute", "decorator", "attribute_list"]);
/** Calls that declare the app's own routes. */
const ROUTE_FUNCTIONS =
  /^(?:HandleFunc|Handle|HandlerFunc|Map(?:Get|Post|Put|Delete|Methods)?|add_url_rule|add_api_route|api_route|route|Route|match|resources?|register_rest_route|add_route|addRoute|on)$/;
/** Receivers whose get/post calls declare routes: routers and app objects. */
const ROUTER_RECEIVERS = /^(?:app|router|r|mux|e|g|group|engine|api|routes|Route|server|srv|v\d|rg|blueprint|bp)$/;

/**
 * The `/run` expressions of a file: around each literal that writes the path,
 * and around each read of a constant that holds it (`BASE_URL + RUN_PATH`,
 * with `RUN_PATH = "/run"` in a constants class); `runConstants` names those.
 */
export function runExpressionsOf(
  source: TreeSource,
  values: TreeValues,
  runConstants: ReadonlySet<string>,
): RunExpression[] {
  const out: RunExpression[] = [];
  const seen = new Set<number>();
  const add = (literal: Node): void => {
    const outer = outermostValue(literal, (node) => helperCallAround(node, source, values));
    if (seen.has(outer.startIndex)) return;
    seen.add(outer.startIndex);
    out.push(describe(outer, literal, source, values));
  };
  const stack: Node[] = [source.tree.rootNode];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (STRING_NODES.has(node.type) && isRunLiteral(node)) {
      add(node);
      continue;
    }
    // A string with no run path of its own may interpolate a constant that holds one (`'$_base$_runPath'`).
    if (STRING_NODES.has(node.type) && runConstants.size === 0) continue;
    if (runConstants.size > 0 && (NAME_NODES.has(node.type) || MEMBER_NODES.has(node.type))) {
      const name = lastName(node);
      if (name && runConstants.has(nameText(name)) && !isDeclaredName(node) && !shadowed(source, node, runConstants)) {
        add(node);
        continue;
      }
    }
    for (let i = node.namedChildCount - 1; i >= 0; i--) {
      const child = node.namedChild(i);
      if (child) stack.push(child);
    }
  }
  return out;
}

export function isRunLiteral(node: Node): boolean {
  return /\brun\b/.test(node.text) && RUN_LITERAL.test(node.text.replace(/\s+$/, ""));
}

/** A literal that is the run path alone (`"/run"`, `'run'`, `"/api/run"`), not a URL built on a base. */
export function isPathConstant(node: Node): boolean {
  return (
    STRING_NODES.has(node.type) &&
    node.namedChildren.every((c) => c === null || STRING_TEXT_NODES.has(c.type)) &&
    isRunLiteral(node) &&
    /^[A-Za-z]{0,2}["'`]\/?(?:api\/)?run\b/.test(node.text)
  );
}

/** A read of one of the names, alone: `Endpoints.run`, `RUN_PATH`, Dart's selector `.run`. */
export function readsOneOf(node: Node, names: ReadonlySet<string>): boolean {
  if (!NAME_NODES.has(node.type) && !MEMBER_NODES.has(node.type) && node.type !== "selector") return false;
  const name = lastName(node);
  return name !== undefined && names.has(nameText(name));
}

/**
 * A bare name this file binds to something else (`final run = await api.status(id)`),
 * or a parameter of the function it is read in, is not the package's path constant.
 */
function shadowed(source: TreeSource, node: Node, runConstants: ReadonlySet<string>): boolean {
  if (!NAME_NODES.has(node.type)) return false;
  const name = nameText(node);
  const own = source.bindings.get(name);
  if (
    own?.every((b) => typeof b.value === "string" || (!isPathConstant(b.value) && !readsOneOf(b.value, runConstants)))
  )
    return true;
  const word = new RegExp(`(?<![\\w$@])[$@]?${name.replace(/[$]/g, "\\$")}\\b`);
  for (let at = node.parent; at; at = at.parent) {
    // Dart puts a function's parameters in the signature beside its body.
    const holder = at.type === "function_body" ? at.previousNamedSibling : at;
    const parameters =
      holder?.childForFieldName("parameters") ??
      holder?.namedChildren.find((c) => c !== null && /^(?:formal_)?parameter_list$|^parameters$/.test(c.type)) ??
      (holder && holder !== at ? firstOfType(holder, "formal_parameter_list") : undefined);
    if (parameters && word.test(parameters.text)) return true;
  }
  return false;
}

function firstOfType(node: Node, type: string): Node | undefined {
  return node.descendantsOfType(type)[0] ?? undefined;
}

/** The name a declaration binds, not a read of it. */
function isDeclaredName(node: Node): boolean {
  const parent = node.parent;
  if (!parent || !DECLARATION_NODES.has(parent.type)) return false;
  return (
    parent.childForFieldName("value") !== node &&
    parent.childForFieldName("right") !== node &&
    parent.namedChildren.at(-1) !== node
  );
}

function describe(node: Node, literal: Node, source: TreeSource, values: TreeValues): RunExpression {
  const value = values.valueOf(node, source);
  const statement = statementOf(node);
  const ownerNode = ownerNodeOf(node);
  const annotation = annotationAround(node);
  if (annotation) {
    const name = annotationName(annotation);
    const onInterface = ownerNode?.type === "interface_declaration";
    if (name && (CLIENT_ANNOTATIONS.test(name) || (onInterface && INTERFACE_CLIENT_ANNOTATIONS.test(name)))) {
      return {
        node,
        literal,
        value,
        position: "request",
        annotatedMethod: name.toUpperCase() === "GET" ? "GET" : "POST",
        statement,
        owner: ownerNode,
      };
    }
    return { node, literal, value, position: "route", statement, owner: ownerNode };
  }
  const position: RunPosition = isDeclaredValue(node) ? "definition" : isRouteArgument(node) ? "route" : "request";
  // Only a path alone (`"/run"`, `fmt.Sprintf("/run")`): a URL already built on a base is judged as it is.
  const resolved =
    (position === "definition" || isAssignedValue(node)) && /^\/?(?:api\/)?run\b/.test(value)
      ? resolvedPathOf(node)
      : undefined;
  if (resolved) {
    // The server is judged apart (its callers, its nearest declaration): the path is on an unknown base here.
    return {
      node,
      literal,
      value: `${HOLE}/${value.replace(/^\/+/, "")}`,
      position: "request",
      ...(resolved.method ? { annotatedMethod: resolved.method } : {}),
      resolved,
      statement,
      owner: ownerNode,
    };
  }
  const reportStart = pathSegmentCallOf(node, literal)?.startIndex ?? namedPathStart(node, literal);
  return {
    node,
    literal,
    value,
    position,
    statement,
    owner: ownerNode,
    ...(reportStart !== undefined ? { reportStart } : {}),
  };
}

/**
 * `Endpoint\n  .AppendPathSegment("run")\n  .PostJsonAsync(…)`: the line that
 * appends the path is the request's, not the line of the base it starts from.
 */
function pathSegmentCallOf(node: Node, literal: Node): Node | undefined {
  if (!CALL_NODES.has(node.type)) return undefined;
  const name = calledName(node);
  if (!name || !PATH_JOIN_METHODS.has(nameText(name))) return undefined;
  return name.startPosition.row > node.startPosition.row && name.startPosition.row <= literal.startPosition.row
    ? name
    : undefined;
}

/** Climbs from a literal through interpolation, concatenation, format calls and URL helpers to the whole URL expression. */
function outermostValue(literal: Node, helperCallAround: (node: Node) => Node | undefined): Node {
  let node = literal;
  for (;;) {
    const parent = node.parent;
    if (!parent) return node;
    // Dart's flat member read: `Endpoints.run` is `Endpoints` and the selector `.run` side by side.
    if (parent.type === "unconditional_assignable_selector" || parent.type === "selector") {
      node = parent;
      continue;
    }
    if (
      INTERPOLATION_NODES.has(parent.type) ||
      STRING_NODES.has(parent.type) ||
      parent.type === "concatenated_string" ||
      parent.type === "parenthesized_expression"
    ) {
      node = parent;
      continue;
    }
    if (
      /binary|additive/.test(parent.type) &&
      parent.children.some((c) => c && !c.isNamed && CONCAT_OPERATORS.has(c.type))
    ) {
      node = parent;
      continue;
    }
    const call = stringCallAround(node) ?? urlPartsAround(node) ?? helperCallAround(node);
    if (call) {
      node = call;
      continue;
    }
    return node;
  }
}

/** The value of a declaration (`RUN_PATH = "/run"`): its uses make the requests. */
function isDeclaredValue(node: Node): boolean {
  let at: Node | null = node.parent;
  while (at && VALUE_WRAPPERS.has(at.type)) at = at.parent;
  if (!at || !DECLARATION_NODES.has(at.type)) return false;
  // Keyword arguments and assignments to a request's fields are uses, not constants.
  return at.type !== "keyword_argument" && at.type !== "assignment_expression" && at.type !== "assignment";
}

/** The whole right side of an assignment (`$resourcePath = '/run'`, `local_var_path = '/run'`). */
function isAssignedValue(node: Node): boolean {
  const parent = node.parent;
  return (
    parent !== null &&
    (parent.type === "assignment" || parent.type === "assignment_expression") &&
    parent.childForFieldName("right")?.startIndex === node.startIndex &&
    parent.childForFieldName("right")?.endIndex === node.endIndex
  );
}

/** A route declared on a router in a builder chain or cascade (`Router()..post('/api/run', handler)`). */
const ROUTER_CHAIN =
  /(?:\bRouter\s*\(\s*\)|\b(?:router|app|mux|routes)\b)[^;]*(?:\.\.|\.|->|::)\s*(?:get|post|put|delete|patch|all|any)\s*\(\s*$/i;

function isRouteArgument(node: Node): boolean {
  const statement = statementOf(node);
  if (ROUTER_CHAIN.test(statement.text.slice(0, node.startIndex - statement.startIndex))) return true;
  let at: Node | null = node.parent;
  for (let hops = 0; at && hops < 4 && !CALL_NODES.has(at.type); hops++) at = at.parent;
  if (!at || !CALL_NODES.has(at.type)) return false;
  // The callee in this order, and its last name: `callee === name` tells a bare verb from one on a receiver.
  const callee =
    at.childForFieldName("function") ??
    at.childForFieldName("method") ??
    at.childForFieldName("name") ??
    at.namedChild(0);
  const name = callee && lastName(callee);
  if (name && ROUTE_FUNCTIONS.test(nameText(name))) return true;
  const receiver =
    at.childForFieldName("object") ??
    at.childForFieldName("receiver") ??
    at.childForFieldName("scope") ??
    (callee && callee !== name ? callee.namedChild(0) : null);
  const verb = HTTP_VERBS.test(name ? nameText(name) : "");
  // A verb called on nothing with a handler block declares a route (Sinatra's `post "/api/run" do`, Ktor's
  // `routing { post("/api/run") { … } }`); a client's request is called on the client.
  if (verb && receiver === null && callee === name && takesHandler(at)) return true;
  return receiver !== null && ROUTER_RECEIVERS.test(nameText(receiver)) && verb;
}

const HTTP_VERBS = /^(?:get|post|put|delete|patch|any|GET|POST|PUT|DELETE|PATCH|Any|Get|Post)$/;
/** Blocks, lambdas and closures passed to a call. */
const HANDLER_NODES =
  /^(?:do_block|block|annotated_lambda|lambda_literal|lambda|arrow_function|func_literal|closure_expression|anonymous_function|function_expression)$/;

function takesHandler(call: Node): boolean {
  const parts = call.namedChildren.flatMap((c) =>
    c && (ARGUMENT_LIST_NODES.has(c.type) || c.type === "call_suffix") ? c.namedChildren : [c],
  );
  if (parts.some((c) => c !== null && HANDLER_NODES.test(c.type))) return true;
  // Kotlin parses `post("/x") { … }` as a call of the call with its arguments.
  const outer = call.parent;
  return (
    outer !== null &&
    CALL_NODES.has(outer.type) &&
    outer.namedChild(0)?.startIndex === call.startIndex &&
    outer.namedChild(0)?.endIndex === call.endIndex &&
    takesHandler(outer)
  );
}

function annotationAround(node: Node): Node | undefined {
  for (let at = node.parent, hops = 0; at && hops < 6; at = at.parent, hops++) {
    if (ANNOTATION_NODES.has(at.type)) return at;
    if (/statement|declaration|body|block/.test(at.type)) return undefined;
  }
  return undefined;
}

function annotationName(annotation: Node): string | undefined {
  const name =
    annotation.childForFieldName("name") ??
    annotation.namedChildren.find((c) => c !== null && /identifier|name|constructor_invocation|user_type/.test(c.type));
  return name ? /[A-Za-z_]\w*$/.exec(name.text.split("(")[0]!)?.[0] : undefined;
}

const STATEMENT =
  /statement$|^return$|^local_declaration|^field_declaration|^property_declaration|^expression_statement|^assignment$|^short_var_declaration/;

function statementOf(node: Node): Node {
  let at: Node = node;
  while (
    at.parent &&
    !STATEMENT.test(at.type) &&
    !/block|body|program|source_file|module|compilation_unit|declaration_list/.test(at.parent.type)
  )
    at = at.parent;
  // Dart's `=> _client.post(…)`: the call is flat in the body, which holds the whole expression.
  if (at.type === "selector" && at.parent?.type === "function_body") return at.parent;
  return at;
}

function ownerNodeOf(node: Node): Node | undefined {
  for (let at = node.parent; at; at = at.parent) {
    if (
      /^(?:class|class_declaration|class_definition|object_declaration|interface_declaration|module|struct_type|record_declaration)$/.test(
        at.type,
      )
    )
      return at;
  }
  return undefined;
}
