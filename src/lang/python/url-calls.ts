/**
 * The standard library's URL calls, on values that may hold HOLEs: urljoin,
 * and urlunparse/urlunsplit, which build a URL from its parts.
 */
import { HOLE } from "../../core/urls.js";

/** `urlunparse((scheme, netloc, path, params, query, fragment))`, `urlunsplit((scheme, netloc, path, query, fragment))`. */
export const URL_UNPARSERS: ReadonlySet<string> = new Set(
  ["urlunparse", "urlunsplit"].flatMap((name) => [name, `parse.${name}`, `urllib.parse.${name}`]),
);

/** The URL a urlunparse or urlunsplit call builds from the values of its tuple's parts. */
export function urlUnparse(callee: string, parts: readonly string[]): string {
  const query = parts[callee.endsWith("urlunsplit") ? 3 : 4] ?? "";
  return `${parts[0] ?? HOLE}://${parts[1] ?? HOLE}${parts[2] ?? ""}${query === "" ? "" : `?${query}`}`;
}

/** urllib.parse.urljoin for the shapes URLs take in code; HOLEs stay where they are. */
export function urlJoin(base: string, reference: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(reference)) return reference;
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(base)?.[0];
  if (reference.startsWith("//")) return `${/^[a-z][a-z0-9+.-]*:/i.exec(base)?.[0] ?? ""}${reference}`;
  if (reference.startsWith("/")) return origin !== undefined ? `${origin}${reference}` : reference;
  const path = base.split(/[?#]/)[0]!;
  if (origin !== undefined && path === origin) return `${origin}/${reference}`;
  return `${path.slice(0, path.lastIndexOf("/") + 1)}${reference}`;
}
