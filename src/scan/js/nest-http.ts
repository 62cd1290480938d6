/**
 * NestJS's injected `HttpService` (`@nestjs/axios`): an axios instance whose
 * `baseURL` the repository registers elsewhere, in
 * `HttpModule.register({ baseURL })` or
 * `HttpModule.registerAsync({ useFactory: (config) => ({ baseURL: config.get("X", default) }) })`
 * or `registerAsync({ useClass })` whose `createHttpOptions()` returns it.
 * The registration is looked for only when a request goes through the service.
 */
import { ts } from "./typescript-api.cjs";
import { HOLE } from "../../core/urls.js";
import { type FileContext, unwrap } from "./file-context.js";
import { returnedExpressions } from "./call-returns.js";
import type { Values } from "./values.js";

const NEST_HTTP_MODULE = "@nestjs/axios";
const SOURCE_FILE = /\.[cm]?[jt]s$/;
const REGISTER = /\bHttpModule\s*\.\s*register(?:Async)?\s*\(/;

export class NestHttp {
  /** The registered base: undefined until looked for, null when there is none. */
  private base: string | null | undefined;

  constructor(private readonly values: Values) {}

  /** A constructor parameter typed `HttpService` from `@nestjs/axios`. */
  isHttpService(param: ts.ParameterDeclaration, context: FileContext): boolean {
    const type = param.type;
    if (!type || !ts.isTypeReferenceNode(type) || !ts.isIdentifier(type.typeName)) return false;
    const def = this.values.definitionOf(type.typeName, context);
    return def?.kind === "external" && def.module === NEST_HTTP_MODULE && def.name === "HttpService";
  }

  /** The `baseURL` the repository registers the HttpModule with (the first registration by path that sets one). */
  registeredBase(): string | undefined {
    if (this.base === undefined) this.base = this.findBase() ?? null;
    return this.base ?? undefined;
  }

  private findBase(): string | undefined {
    const { project } = this.values;
    for (const file of [...project.files].filter((f) => SOURCE_FILE.test(f)).sort()) {
      const text = project.textOf(file);
      if (!text || !REGISTER.test(text)) continue;
      const context = project.contextFor(file);
      for (const call of context?.calls ?? []) {
        const base = context && this.baseOf(call, context);
        if (base !== undefined && !base.startsWith(HOLE)) return base;
      }
    }
    return undefined;
  }

  private baseOf(call: ts.CallExpression, context: FileContext): string | undefined {
    const callee = unwrap(call.expression);
    if (!ts.isPropertyAccessExpression(callee) || !ts.isIdentifier(callee.expression)) return undefined;
    if (callee.expression.text !== "HttpModule") return undefined;
    const options = this.values.objectLiteral(call.arguments[0], context);
    let config = options;
    if (callee.name.text === "registerAsync") {
      const useFactory = this.values.property(options, "useFactory");
      const factory = useFactory
        ? { fn: unwrap(useFactory.expr), context: useFactory.context }
        : this.optionsClass(options);
      const fn = factory?.fn;
      if (!fn || !(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn) || ts.isMethodDeclaration(fn)))
        return undefined;
      config = undefined;
      for (const expr of returnedExpressions(fn)) config ??= this.values.objectLiteral(expr, factory.context);
    } else if (callee.name.text !== "register") return undefined;
    const baseURL = this.values.property(config, "baseURL");
    return baseURL && this.values.stringValue(baseURL.expr, baseURL.context, null);
  }

  /** `registerAsync({ useClass: HttpConfigService })`: the class's `createHttpOptions()` method. */
  private optionsClass(
    options: ReturnType<Values["objectLiteral"]>,
  ): { fn: ts.MethodDeclaration | undefined; context: FileContext } | undefined {
    const useClass = this.values.property(options, "useClass") ?? this.values.property(options, "useExisting");
    const name = useClass && unwrap(useClass.expr);
    if (!useClass || !name || !ts.isIdentifier(name)) return undefined;
    const def = this.values.definitionOf(name, useClass.context);
    if (def?.kind !== "node" || !ts.isClassLike(def.node)) return undefined;
    const fn = def.node.members.find(
      (m): m is ts.MethodDeclaration =>
        ts.isMethodDeclaration(m) && ts.isIdentifier(m.name) && m.name.text === "createHttpOptions",
    );
    return { fn, context: def.context };
  }
}
