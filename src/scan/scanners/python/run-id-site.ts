/**
 * Where a Python status request whose `run_id` is written on a later line
 * than its URL is reported: the `run_id` entry of the call's `params=` dict
 * (requests, httpx, aiohttp, a wrapper taking the same keyword), as the other
 * languages' query options are. A `run_id` on the URL's own line, or in a
 * dict bound to a name before the call, leaves the finding on the URL.
 */
import { BODY_LINES, RUN_ID_KEY } from "../../../core/run-path.js";
import type { PyModule } from "../../../lang/python/module.js";
import type { PyRange } from "../../../lang/python/syntax.js";
import { isName, isOp } from "../../../lang/python/tokens.js";
import type { PyValues } from "../../../lang/python/values.js";

/**
 * The `run_id` entry of the `params=` argument (or of `keywords`, the ones a
 * client takes its query in) of the call opened at `open`, when it is below the URL.
 */
export function paramsRunIdSite(
  module: PyModule,
  values: PyValues,
  open: number,
  url: PyRange,
  keywords: readonly string[] = ["params"],
): PyRange | undefined {
  const args = module.callArguments(open).keyword;
  const entry = keywords
    .map((keyword) => args.get(keyword))
    .map((params) => params && runIdEntry(module, values, params))
    .find((found) => found !== undefined);
  if (!entry) return undefined;
  const t = module.tokens;
  const below = module.lineAt(t[entry.lo]!.start) - module.lineAt(t[url.lo]!.start);
  return below > 0 && below <= BODY_LINES ? entry : undefined;
}

/** `"run_id": rid` in a dict display, `run_id=rid` in a `dict(...)` call, `("run_id", rid)` in a list of pairs. */
function runIdEntry(module: PyModule, values: PyValues, range: PyRange): PyRange | undefined {
  const t = module.tokens;
  const { lo, hi } = range;
  if (isOp(t[lo], "{") && module.partner(lo) === hi - 1) {
    return module.splitTopLevel(lo + 1, hi - 1).find((item) => {
      const colon = module.findTopLevel(item.lo, item.hi, (tok) => isOp(tok, ":"));
      return colon > item.lo && values.staticString({ lo: item.lo, hi: colon }) === RUN_ID_KEY;
    });
  }
  if (isName(t[lo], "dict") && isOp(t[lo + 1], "(") && module.partner(lo + 1) === hi - 1)
    return module.argumentList(lo + 1).find((arg) => arg.keyword !== undefined && t[arg.keyword]!.value === RUN_ID_KEY);
  // `[("run_id", rid), …]`: requests takes a list (or tuple) of pairs too.
  if ((isOp(t[lo], "[") || isOp(t[lo], "(")) && module.partner(lo) === hi - 1) {
    return module.splitTopLevel(lo + 1, hi - 1).find((item) => {
      if (!isOp(t[item.lo], "(") || module.partner(item.lo) !== item.hi - 1) return false;
      const key = module.splitTopLevel(item.lo + 1, item.hi - 1)[0];
      return key !== undefined && values.staticString(key) === RUN_ID_KEY;
    });
  }
  return undefined;
}
