/** Webhook delivery: POST the run's status to its webhook address, retrying with backoff. */
import { request } from "undici";

export class WebhookSender {
  /** Every delivery attempt, for tests and the emulator's own log. */
  readonly attempts: Array<{ url: string; status: string; ok: boolean }> = [];

  constructor(private readonly maxAttempts: number) {}

  /** Resolves true once a 2xx answer arrives, false when every attempt failed. */
  async deliver(url: string, run: Record<string, unknown>, final: boolean): Promise<boolean> {
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
      this.attempts.push({ url, status: String(run.status), ok });
      if (ok) return true;
    }
    return false;
  }
}
