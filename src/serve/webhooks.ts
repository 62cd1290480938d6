/**
 * Webhook delivery: POST the run's status to its webhook address, retrying
 * with backoff. Only http(s) addresses are ever contacted: the queue endpoint
 * refuses others (422), and the sender checks again. Loopback, link-local and
 * metadata addresses are refused too, unless `allowLocal` (local testing):
 * by the URL, and by every address the name resolves to when connecting.
 */
import { Agent, request } from "undici";
import { keepLast } from "./bounded-log.js";
import { type Lookup, REFUSED_ADDRESS_CODE, refusedHostKind, refusingLookup } from "./webhook-address.js";

/** The option that lets webhooks reach this machine, named where a refusal is explained. */
export const ALLOW_LOCAL_WEBHOOKS_FLAG = "--allow-local-webhooks";

/**
 * Why a webhook address is not one the service would call, in pydantic's
 * words (HttpUrl), or not one the emulator calls without `allowLocal`; or undefined.
 */
export function webhookUrlProblem(value: string, allowLocal = true): { msg: string; type: string } | undefined {
  if (value === "") return { msg: "Input should be a valid URL, input is empty", type: "url_parsing" };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { msg: "Input should be a valid URL, relative URL without a base", type: "url_parsing" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { msg: "URL scheme should be 'http' or 'https'", type: "url_scheme" };
  if (url.hostname === "") return { msg: "Input should be a valid URL, empty host", type: "url_parsing" };
  const kind = allowLocal ? undefined : refusedHostKind(url.hostname);
  if (kind) {
    return {
      msg: `Value error, ${url.hostname} is a ${kind} address: serve refuses such webhooks unless started with ${ALLOW_LOCAL_WEBHOOKS_FLAG}`,
      type: "value_error",
    };
  }
  return undefined;
}

export interface WebhookSenderOptions {
  /** Deliver to loopback, link-local and metadata addresses too. */
  allowLocal?: boolean;
  /** Name resolution (tests resolve a name to a chosen address). */
  lookup?: Lookup;
}

export class WebhookSender {
  /** The most recent delivery attempts, for tests and the emulator's own log. */
  readonly attempts: Array<{ url: string; status: string; ok: boolean }> = [];
  private readonly allowLocal: boolean;
  private readonly dispatcher: Agent | undefined;

  constructor(
    private readonly maxAttempts: number,
    options: WebhookSenderOptions = {},
  ) {
    this.allowLocal = Boolean(options.allowLocal);
    const lookup = this.allowLocal ? options.lookup : refusingLookup(options.lookup);
    this.dispatcher = lookup ? new Agent({ connect: { lookup: lookup as never } }) : undefined;
  }

  /** Resolves true once a 2xx answer arrives, false when every attempt failed or the address is refused. */
  async deliver(url: string, run: Record<string, unknown>, final: boolean): Promise<boolean> {
    if (webhookUrlProblem(url, this.allowLocal)) return false;
    const body = JSON.stringify({
      run_id: run.id,
      status: run.status,
      live_status: run.live_status,
      progress: run.progress,
      ...(final ? { outputs: run.outputs } : {}),
    });
    for (let attempt = 0; attempt < this.maxAttempts; attempt++) {
      if (attempt > 0) await new Promise((done) => setTimeout(done, Math.min(2000, 100 * 2 ** (attempt - 1))));
      let ok = false;
      try {
        const response = await request(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
          headersTimeout: 5000,
          bodyTimeout: 5000,
          ...(this.dispatcher ? { dispatcher: this.dispatcher } : {}),
        });
        await response.body.dump();
        ok = response.statusCode >= 200 && response.statusCode < 300;
      } catch (error) {
        // An address refused after resolving stays refused: no retry.
        if (isRefusedAddress(error)) {
          keepLast(this.attempts, { url, status: String(run.status), ok: false });
          return false;
        }
        ok = false;
      }
      keepLast(this.attempts, { url, status: String(run.status), ok });
      if (ok) return true;
    }
    return false;
  }

  close(): Promise<void> {
    return this.dispatcher?.close() ?? Promise.resolve();
  }
}

function isRefusedAddress(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return (e.code ?? e.cause?.code) === REFUSED_ADDRESS_CODE;
}
