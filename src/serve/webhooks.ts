/**
 * Webhook delivery: POST the run's status to its webhook address, retrying
 * with backoff. Only http(s) addresses are ever contacted: the queue endpoint
 * refuses others (422), and the sender checks again.
 */
import { request } from "undici";
import { keepLast } from "./bounded-log.js";

/** Why a webhook address is not one the service would call, in pydantic's words (HttpUrl), or undefined. */
export function webhookUrlProblem(value: string): { msg: string; type: string } | undefined {
  if (value === "") return { msg: "Input should be a valid URL, input is empty", type: "url_parsing" };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { msg: "Input should be a valid URL, relative URL without a base", type: "url_parsing" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { msg: "URL scheme should be 'http' or 'https'", type: "url_scheme" };
  if (url.hostname === "") return { msg: "Input should be a valid URL, empty host", type: "url_parsing" };
  return undefined;
}

export class WebhookSender {
  /** The most recent delivery attempts, for tests and the emulator's own log. */
  readonly attempts: Array<{ url: string; status: string; ok: boolean }> = [];

  constructor(private readonly maxAttempts: number) {}

  /** Resolves true once a 2xx answer arrives, false when every attempt failed or the address is not http(s). */
  async deliver(url: string, run: Record<string, unknown>, final: boolean): Promise<boolean> {
    if (webhookUrlProblem(url)) return false;
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
        });
        await response.body.dump();
        ok = response.statusCode >= 200 && response.statusCode < 300;
      } catch {
        ok = false;
      }
      keepLast(this.attempts, { url, status: String(run.status), ok });
      if (ok) return true;
    }
    return false;
  }
}
