/**
 * The server a generated client's request goes to (a path resolved against
 * a server in its function, `lang/tree/resolved-paths.ts`): for a server
 * parameter, what the app's constructor calls pass; for a named base, its
 * nearest declaration (the package's own `ApiClient`). A server on a
 * ComfyDeploy host makes the request V1's; a known server elsewhere makes it
 * another API's; nothing known leaves it to the repository's V1 base evidence.
 */
import { type HostSet, isVendorHost, parseUrlText, type UrlInfo } from "../../../core/urls.js";
import type { TreeSource } from "../../../lang/tree/declarations.js";
import { nearestDeclaredValue } from "../../../lang/tree/nearest-declarations.js";
import type { PackageTrees } from "../../../lang/tree/package-trees.js";
import { knownValues, parameterValues } from "../../../lang/tree/parameter-values.js";
import type { ResolvedPath } from "../../../lang/tree/resolved-paths.js";
import { lastName, nameText } from "../../../lang/tree/syntax.js";

export interface ParsedFile {
  source: TreeSource;
  trees: PackageTrees;
}

/** The request's URL on the ComfyDeploy server it is sent to and where that server is set; "another" when it goes elsewhere. */
export function serverOf(
  resolved: ResolvedPath,
  parsed: ParsedFile,
  path: string,
  hosts: HostSet,
): { url: UrlInfo; at: { file: string; line: number } } | "another" | undefined {
  const servers = knownServers(resolved, parsed);
  if (servers.length === 0) return undefined;
  for (const server of servers) {
    const url = parseUrlText(onBase(server.value, path), hosts);
    if (isVendorHost(url)) return { url, at: { file: server.file, line: server.line } };
  }
  return "another";
}

function knownServers(
  resolved: ResolvedPath,
  parsed: ParsedFile,
): Array<{ value: string; file: string; line: number }> {
  if (resolved.parameter)
    return knownValues(
      parameterValues(resolved.parameter.function, resolved.parameter.index, parsed.source, parsed.trees),
    );
  const name = resolved.base && lastName(resolved.base);
  const declared = name && nearestDeclaredValue(nameText(name), parsed.source, parsed.trees);
  return declared ? [declared] : [];
}

/** A server joined to the path resolved against it (the path's value starts with the unknown-base hole). */
function onBase(server: string, path: string): string {
  return `${server.replace(/\/+$/, "")}/${path.replace(/^\u0000+/, "").replace(/^\/+/, "")}`;
}
