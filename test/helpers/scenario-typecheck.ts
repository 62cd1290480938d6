/**
 * Type-checks a scenario app (its own tsconfig, strict) against one SDK: the
 * module `comfydeploy` is mapped to the V1 SDK (the `comfydeploy-v1` alias,
 * 0.0.19) or to the V2 SDK (`comfydeploy`, 2.0.0-beta.69). The app's other
 * dependencies are stand-in declarations; zod and @types/node are the
 * repository's own.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import fg from "fast-glob";
import ts from "typescript";
import { scratchDir } from "./demo-copy.js";
import { SCENARIO_DEPENDENCY_DECLARATIONS } from "./stand-in-declarations.js";
import { type Diagnostic, readTsconfig, typecheck } from "./typecheck.js";

export type SdkVersion = "v1" | "v2";

const NODE_MODULES = join(import.meta.dirname, "..", "..", "node_modules");

/** Where each SDK is installed (package.json devDependencies). */
export const SDK_PACKAGE_DIRS: Record<SdkVersion, string> = {
  v1: join(NODE_MODULES, "comfydeploy-v1"),
  v2: join(NODE_MODULES, "comfydeploy"),
};

export const SDK_MODULE = "comfydeploy";

/** Diagnostics of the app in `dir` with `comfydeploy` resolved to the given SDK. */
export function typecheckScenario(dir: string, sdk: SdkVersion): Diagnostic[] {
  const { options, fileNames } = readTsconfig(join(dir, "tsconfig.json"));
  const stubs = scratchDir("scenario-typecheck-");
  try {
    const declarations = join(stubs, "stand-in-dependencies.d.ts");
    writeFileSync(declarations, SCENARIO_DEPENDENCY_DECLARATIONS);
    const sdkDir = SDK_PACKAGE_DIRS[sdk];
    return typecheck([...fileNames, declarations], {
      ...options,
      strict: true,
      types: ["node"],
      incremental: false,
      paths: { ...options.paths, [SDK_MODULE]: [sdkDir], [`${SDK_MODULE}/*`]: [`${sdkDir}/*`] },
    });
  } finally {
    rmSync(stubs, { recursive: true, force: true });
  }
}

export interface SdkImport {
  /** Relative to the app. */
  file: string;
  /** Names imported from the SDK (`default` for a default import, `*` for a namespace or require). */
  names: string[];
}

/** Every JS/TS file of the app that imports or requires `comfydeploy` (or a path inside it), with the names it takes. */
export function sdkImportsOf(dir: string): SdkImport[] {
  const files = fg
    .sync("**/*.{ts,tsx,js,jsx,mjs,cjs,mts,cts}", { cwd: dir, ignore: ["**/node_modules/**", "**/*.d.ts"] })
    .sort();
  const found: SdkImport[] = [];
  for (const file of files) {
    const text = readFileSync(join(dir, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const names = new Set<string>();
    let imports = false;
    const visit = (node: ts.Node): void => {
      if (
        ts.isImportDeclaration(node) &&
        ts.isStringLiteral(node.moduleSpecifier) &&
        isSdkSpecifier(node.moduleSpecifier.text)
      ) {
        imports = true;
        const clause = node.importClause;
        if (clause?.name) names.add("default");
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) names.add("*");
        if (bindings && ts.isNamedImports(bindings))
          for (const element of bindings.elements) names.add((element.propertyName ?? element.name).text);
      }
      if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0]!)) {
        const callee = node.expression;
        const isRequire = ts.isIdentifier(callee) && callee.text === "require";
        if (
          (isRequire || callee.kind === ts.SyntaxKind.ImportKeyword) &&
          isSdkSpecifier((node.arguments[0] as ts.StringLiteral).text)
        ) {
          imports = true;
          names.add("*");
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    if (imports) found.push({ file, names: [...names].sort() });
  }
  return found;
}

function isSdkSpecifier(specifier: string): boolean {
  return specifier === SDK_MODULE || specifier.startsWith(`${SDK_MODULE}/`);
}

/** A diagnostic's file relative to the app (or as is when outside it). */
export function appRelative(dir: string, file: string): string {
  const path = relative(dir, file);
  return path.startsWith("..") ? file : path.split("\\").join("/");
}
