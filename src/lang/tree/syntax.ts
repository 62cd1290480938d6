/**
 * The node kinds the value resolver reads, for every tree-sitter grammar it
 * is given (Python, Go, PHP, C#, Ruby, Java, Kotlin, Dart). The grammars
 * name the same ideas differently; one table keeps the resolver itself
 * free of per-language branches.
 */
import type { Node } from "web-tree-sitter";

/** String literals, with or without interpolation. */
export const STRING_NODES = new Set([
  "string", // Python, PHP single-quoted, Ruby
  "concatenated_string", // Python "a" "b"
  "interpreted_string_literal", // Go
  "raw_string_literal", // Go, C#
  "encapsed_string", // PHP double-quoted
  "string_literal", // C#, Java, Kotlin, Dart
  "verbatim_string_literal", // C#
  "interpolated_string_expression", // C#
  "interpolated_verbatim_string_expression", // C#
  "line_string_literal", // Kotlin (some grammar versions)
  "multi_line_string_literal",
  "heredoc", // PHP
  "nowdoc",
]);

/** Children of a string literal that are written text, not expressions. */
export const STRING_TEXT_NODES = new Set([
  "string_content",
  "string_fragment",
  "escape_sequence",
  "interpolated_string_text",
  "string_start",
  "string_end",
  "heredoc_start",
  "heredoc_end",
  "heredoc_body",
  "nowdoc_body",
  "format_specifier",
  "type_conversion",
  "interpolation_format_clause",
  "interpolation_alignment_clause",
]);

/** Wrappers of an expression inside a string: `{x}`, `#{x}`, `${x}`. */
export const INTERPOLATION_NODES = new Set(["interpolation", "template_substitution", "interpolated_expression"]);

/** Names: variables, constants, fields. `$x`, `@x` and `$x` in a Dart template are read without their sigil. */
export const NAME_NODES = new Set([
  "identifier",
  "name",
  "simple_identifier",
  "constant",
  "instance_variable",
  "class_variable",
  "global_variable",
  "variable_name",
  "identifier_dollar_escaped",
  "interpolated_identifier",
  "field_identifier",
  "property_identifier",
]);

/** Member reads: the last name is what they read (`a.b`, `$this->b`, `self::B`, `Consts.B`, `A::B`). */
export const MEMBER_NODES = new Set([
  "attribute", // Python
  "selector_expression", // Go
  "member_access_expression", // PHP, C#
  "class_constant_access_expression", // PHP
  "scoped_property_access_expression",
  "nullsafe_member_access_expression",
  "field_access", // Java
  "navigation_expression", // Kotlin
  "scope_resolution", // Ruby
  "qualified_name",
  "scoped_identifier",
]);

/** Calls. */
export const CALL_NODES = new Set([
  "call", // Python, Ruby
  "call_expression", // Go, Kotlin
  "function_call_expression", // PHP
  "member_call_expression",
  "scoped_call_expression",
  "nullsafe_member_call_expression",
  "invocation_expression", // C#
  "method_invocation", // Java
]);

export const ARGUMENT_LIST_NODES = new Set(["argument_list", "arguments", "value_arguments", "call_suffix"]);

/** Binary operators that join strings. */
export const CONCAT_OPERATORS = new Set(["+", ".", "<<"]);
/** Operators whose right side is the default of the left (`getenv("X") ?? "…"`, `a || "…"`, `a ?: "…"`, `a or "…"`). */
export const FALLBACK_OPERATORS = new Set(["??", "||", "?:", "or", "?"]);

/** Declarations that bind a name to a value (the name and value are found by field or position). */
export const DECLARATION_NODES = new Set([
  "assignment", // Python, Ruby
  "const_spec", // Go
  "var_spec",
  "short_var_declaration",
  "assignment_statement",
  "const_element", // PHP
  "property_element",
  "assignment_expression", // PHP, C#
  "variable_declarator", // C#, Java
  "property_declaration", // C#, Kotlin
  "static_final_declaration", // Dart
  "initialized_identifier",
  "initialized_variable_definition",
  "keyword_argument", // Python `base_url="…"` in a settings constructor
  "default_parameter",
  "typed_default_parameter",
  "enum_constant",
  "keyed_element", // Go `Client{baseURL: DefaultBaseURL}`
  "field_initializer", // Dart `: _base = base ?? _defaultBase`
  "pair", // Ruby `base_url: "…"`, Python and PHP settings maps
  "array_element_initializer",
  "named_argument",
]);

/** Wrappers around a declared value. */
export const VALUE_WRAPPERS = new Set([
  "equals_value_clause",
  "property_initializer",
  "expression_list",
  "parenthesized_expression",
  "argument",
  "value_argument",
  "literal_element", // Go composite literal values
]);

/** Functions and methods: a call with no arguments reads what they return. */
export const FUNCTION_NODES = new Set([
  "function_definition",
  "function_declaration",
  "method_declaration",
  "method",
  "singleton_method",
  "function_signature",
  "method_signature",
  "getter_signature",
  "local_function_statement",
]);

/** Calls that keep the string they are called on (`BaseUrl.TrimEnd('/')`, `base.rstrip("/")`, Ruby's `"…".freeze`). */
export const STRING_KEEPING_METHODS = new Set([
  "TrimEnd",
  "Trim",
  "TrimStart",
  "trim",
  "trimEnd",
  "rtrim",
  "rstrip",
  "strip",
  "chomp",
  "removeSuffix",
  "trimEnd",
  "toString",
  "ToString",
  "to_s",
  "str",
  "String",
  "untrailingslashit",
  "freeze",
]);

/**
 * Calls that append path segments to the URL they are called on (Flurl's
 * `base.AppendPathSegment("run")`, OkHttp's `addPathSegment`, Android's
 * `appendPath`, Go's `u.JoinPath("run")`); called on a type or package
 * (`Url.Combine(base, "run")`, `url.JoinPath(base, "run")`), they join their arguments.
 */
export const PATH_JOIN_METHODS = new Set([
  "AppendPathSegment",
  "AppendPathSegments",
  "Combine",
  "JoinPath",
  "addPathSegment",
  "addPathSegments",
  "addEncodedPathSegment",
  "addEncodedPathSegments",
  "appendPath",
  "appendEncodedPath",
  "pathSegment",
]);

/** Format calls: the first string argument is a template for the rest. */
export const FORMAT_FUNCTIONS = new Set(["Sprintf", "sprintf", "format", "Format", "formatted", "printf"]);

/** Reads of a setting with a default as their last argument (`os.getenv("X", "…")`, `ENV.fetch("X", "…")`, `config.get("x", "…")`, WordPress's `get_option("x", "…")`). */
export const SETTING_READS =
  /^(?:getenv|get_env|get|fetch|getOrDefault|GetValue|getProperty|getString|env|config|setting|option|get_option|get_site_option|getOrElse|GetEnvironmentVariable)$/;

/** The text of a name node, without the sigil some grammars keep (`$x`, `@x`, `@@x`). */
export function nameText(node: Node): string {
  return node.text
    .replace(/^(?:\$|@@?|:)/, "")
    .replace(/^(["'])(\w+)\1$/, "$2")
    .replace(/:$/, "");
}

/** The last name in a member read or callee (`a.b.c` → c, `$this->base` → base, `Consts::B` → B). */
export function lastName(node: Node): Node | undefined {
  if (NAME_NODES.has(node.type)) return node;
  for (let i = node.namedChildCount - 1; i >= 0; i--) {
    const child = node.namedChild(i);
    if (!child) continue;
    if (NAME_NODES.has(child.type)) return child;
    if (
      MEMBER_NODES.has(child.type) ||
      child.type === "navigation_suffix" ||
      child.type === "selector" ||
      child.type === "unconditional_assignable_selector"
    ) {
      return lastName(child);
    }
    if (ARGUMENT_LIST_NODES.has(child.type)) continue;
    return undefined;
  }
  return undefined;
}
