/**
 * Telling a wrong base URL from an unknown deployment when the queue request
 * answers 404. A GET of the queue path costs nothing and creates no run: where
 * the endpoint exists it is a 405 (the route takes POST only), so the 404 was
 * about the deployment; where it is a 404 too, the path is wrong, and the same
 * probe under `<base>/api` says whether adding /api is the fix.
 */
import { HOSTS } from "../knowledge/migration.js";
import { type Budget, send } from "./http.js";
import type { CheckOptions } from "./live-check.js";

/** Why the base URL is wrong, or undefined when the queue endpoint is there (the deployment is what was not found). */
export async function notFoundReason(
  options: CheckOptions,
  budget: Budget,
  queueUrl: string,
): Promise<string | undefined> {
  if ((await routeExists(options, budget, queueUrl)) !== false) return undefined;
  const base = options.baseUrl.replace(/\/+$/, "");
  const withApi = `${base}/api`;
  const problem = `--base-url ${base} serves no V2 queue endpoint (POST ${queueUrl} answered HTTP 404, and the path does not exist)`;
  if (
    !/\/api$/.test(new URL(base).pathname) &&
    (await routeExists(options, budget, queueUrl.replace(base, withApi))) === true
  ) {
    return `${problem}: the API is under /api, use --base-url ${withApi}`;
  }
  return `${problem}: is it the V2 API base, ending in /api (default ${HOSTS.v2.apiBase})?`;
}

/** A GET of a POST-only route: 405 where it exists, 404 where it does not; undefined when the answer cannot tell. */
async function routeExists(options: CheckOptions, budget: Budget, url: string): Promise<boolean | undefined> {
  try {
    const { status } = await send(options, budget, "GET", url);
    return status === 405 ? true : status === 404 ? false : undefined;
  } catch {
    return undefined;
  }
}
