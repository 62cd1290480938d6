/**
 * What counts as an import of the `comfydeploy` npm package, for the scanner
 * and the transforms alike: the package itself or any file inside it
 * (`comfydeploy/dist/index.js`, V1's entry; `comfydeploy/models/components/index.js`, V2's).
 * Which generation is meant is decided by the names imported, not the path.
 */
import { JS_SDK } from "../../knowledge/migration.js";

export function isSdkModule(specifier: string): boolean {
  return specifier === JS_SDK.packageName || specifier.startsWith(`${JS_SDK.packageName}/`);
}

/** A file inside the package rather than the package: V1's build layout, which V2 does not have. */
export function isSdkSubpath(specifier: string): boolean {
  return specifier.startsWith(`${JS_SDK.packageName}/`);
}
