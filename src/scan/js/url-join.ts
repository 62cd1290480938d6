/**
 * URL arithmetic on strings that may hold HOLEs: resolving a path against a
 * base (`new URL(path, base)`) and joining a client's base URL to a path.
 */

/** WHATWG URL resolution, simplified to what matters for telling hosts and paths apart. */
export function resolveAgainst(base: string, path: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith("//")) return path;
  const origin = /^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/?#]*/i.exec(base)?.[0];
  if (path.startsWith("/")) return origin !== undefined ? origin + path : path;
  const withoutQuery = base.replace(/[?#].*$/, "");
  const slash = withoutQuery.lastIndexOf("/");
  const dir = slash >= (origin?.length ?? 0) ? withoutQuery.slice(0, slash + 1) : `${withoutQuery}/`;
  return dir + path;
}

/** Joins a client's base URL (axios baseURL, ky/got prefixUrl) with a request path. */
export function joinBase(base: string, path: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith("//")) return path;
  return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}
