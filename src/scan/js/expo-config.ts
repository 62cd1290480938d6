/**
 * Expo's app config as `expo-constants` hands it to the app:
 * `Constants.expoConfig` (and the older `Constants.manifest`) is the `expo`
 * object of app.config.(ts|js) or app.json, so `Constants.expoConfig?.extra?.apiUrl`
 * reads the `extra` the project sets there. The config is looked for only
 * when the app reads it, from the reading file's folder up.
 */
import { posix } from "node:path";
import { ts } from "./typescript-api.cjs";
import { type FileContext, unwrap } from "./file-context.js";
import { returnedExpressions } from "./call-returns.js";
import { jsonDocument } from "./json-modules.js";
import type { Values } from "./values.js";

type Located = { context: FileContext; expr: ts.Expression };

const EXPO_CONSTANTS = "expo-constants";
/** The members of `Constants` that hold the app config. */
const CONFIG_MEMBERS: ReadonlySet<string> = new Set(["expoConfig", "manifest"]);
const DYNAMIC_CONFIGS = ["app.config.ts", "app.config.js", "app.config.mjs", "app.config.cjs"];

/** Whether `Constants.<member>` (Constants from expo-constants) is the app config. */
export function isExpoConfigRead(module: string, member: string): boolean {
  return module === EXPO_CONSTANTS && CONFIG_MEMBERS.has(member);
}

/** The app config object nearest the reading file: app.config's when it sets `extra`, else app.json's. */
export function expoConfig(values: Values, fromFile: string): Located | undefined {
  const { files } = values.project;
  for (let dir = posix.dirname(fromFile); ; dir = posix.dirname(dir)) {
    const at = (name: string) => (dir === "." || dir === "" ? name : `${dir}/${name}`);
    const dynamic = DYNAMIC_CONFIGS.map(at).find((file) => files.has(file));
    const fromCode = dynamic ? dynamicConfig(values, dynamic) : undefined;
    if (fromCode && values.property(values.objectLiteral(fromCode.expr, fromCode.context), "extra")) return fromCode;
    const fromJson = files.has(at("app.json")) ? staticConfig(values, at("app.json")) : undefined;
    if (fromJson ?? fromCode) return fromJson ?? fromCode;
    if (dir === "." || dir === "" || dir === "/") return undefined;
  }
}

/** app.json: its `expo` object (or the whole document, which Expo also accepts). */
function staticConfig(values: Values, file: string): Located | undefined {
  const doc = jsonDocument(values.project, file);
  if (!doc) return undefined;
  const root = { context: doc.context, expr: doc.node };
  return values.property(values.objectLiteral(root.expr, root.context), "expo") ?? root;
}

/** app.config.(ts|js): the default export, or what its function returns, then its `expo` object if it has one. */
function dynamicConfig(values: Values, file: string): Located | undefined {
  const value = values.valueOf(values.exportDefinition(file, "default"));
  if (!value) return undefined;
  let config: Located | undefined = value;
  const fn = unwrap(value.expr);
  if (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) {
    config = undefined;
    for (const expr of returnedExpressions(fn)) {
      if (values.objectLiteral(expr, value.context)) {
        config = { context: value.context, expr };
        break;
      }
    }
  }
  const object = config && values.objectLiteral(config.expr, config.context);
  return values.property(object, "expo") ?? config;
}
