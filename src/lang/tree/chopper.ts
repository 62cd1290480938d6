/**
 * Chopper services (Dart): the class annotation names a path every method
 * shares (`@ChopperApi(baseUrl: '/run')`) and each method's annotation adds
 * its own (`@Post()`, `@Get(path: '/{id}')`). A request's path is the two
 * joined, so the request is the method's annotation, wherever `run` is written.
 */
import type { Node } from "web-tree-sitter";
import type { TreeSource } from "./declarations.js";
import type { RunExpression } from "./run-expressions.js";
import { isRunLiteral } from "./run-expressions.js";
import { nameText, STRING_NODES } from "./syntax.js";
import type { TreeValues } from "./values.js";

const SERVICE_ANNOTATION = "ChopperApi";
/** Chopper's GET and POST method annotations, in both of its spellings (the V1 run endpoints take no others). */
const METHOD_ANNOTATIONS = /^(?:Get|Post|GET|POST)$/;

/** The annotation's name (`Post` in `@Post(path: '/run')`). */
function annotationName(annotation: Node): string | undefined {
  const name = annotation.namedChildren.find((c) => c?.type === "identifier");
  return name ? nameText(name) : undefined;
}

/** A named argument of an annotation (`baseUrl:`, `path:`). */
function annotationArgument(annotation: Node, label: string): Node | undefined {
  const list = annotation.namedChildren.find((c) => c?.type === "arguments");
  for (const argument of list?.namedChildren ?? []) {
    if (argument?.type !== "named_argument") continue;
    const key = argument.namedChildren.find((c) => c?.type === "label")?.namedChild(0);
    if (key && nameText(key) === label) return argument.namedChildren.at(-1) ?? undefined;
  }
  return undefined;
}

/**
 * The requests of the file's Chopper services whose joined path writes `run`:
 * one per method annotation, at that annotation, with its method.
 */
export function chopperRequestsOf(source: TreeSource, values: TreeValues): RunExpression[] {
  if (source.language !== "dart") return [];
  const out: RunExpression[] = [];
  for (const service of source.tree.rootNode.descendantsOfType("class_definition")) {
    const annotation = service?.namedChildren.find(
      (c) => c?.type === "annotation" && annotationName(c) === SERVICE_ANNOTATION,
    );
    if (!service || !annotation) continue;
    const servicePath = annotationArgument(annotation, "baseUrl");
    const body = service.namedChildren.find((c) => c?.type === "class_body");
    for (const method of body?.namedChildren ?? []) {
      if (method?.type !== "annotation") continue;
      const verb = annotationName(method);
      if (!verb || !METHOD_ANNOTATIONS.test(verb)) continue;
      const methodPath = annotationArgument(method, "path");
      const literal = [methodPath, servicePath].find((p) => p && STRING_NODES.has(p.type) && isRunLiteral(p));
      if (!literal) continue;
      const value = joinPaths(
        servicePath ? values.valueOf(servicePath, source) : "",
        methodPath ? values.valueOf(methodPath, source) : "",
      );
      out.push({
        node: method,
        // The path may be the class's, shared with other methods: the method's annotation is what to edit.
        literal: method,
        value,
        position: "request",
        annotatedMethod: verb.toUpperCase() === "GET" ? "GET" : "POST",
        statement: method.nextNamedSibling ?? method,
        owner: service,
      });
    }
  }
  return out;
}

function joinPaths(left: string, right: string): string {
  if (right === "") return left;
  if (left === "") return right;
  return `${left.replace(/\/+$/, "")}/${right.replace(/^\/+/, "")}`;
}
