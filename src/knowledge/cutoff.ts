/** Where a date stands against the V1 cutoff, in words every report uses. */
import { CUTOFF_DATE } from "./migration.js";

const DAY_MS = 24 * 60 * 60 * 1000;

export interface CutoffStatus {
  cutoff: string;
  /** Whole days from today to the cutoff; negative once it has passed. */
  daysLeft: number;
  passed: boolean;
  /** One sentence for reports. */
  summary: string;
}

export function cutoffStatus(now: Date = new Date(), cutoff: string = CUTOFF_DATE): CutoffStatus {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const [y, m, d] = cutoff.split("-").map(Number) as [number, number, number];
  const daysLeft = Math.round((Date.UTC(y, m - 1, d) - today) / DAY_MS);
  const consequence =
    "V1 worker users are being moved to V2 and custom nodes older than comfyui-deploy v2.1.0 stop working";
  let summary: string;
  if (daysLeft > 0)
    summary = `${daysLeft} day${daysLeft === 1 ? "" : "s"} left until the V1 cutoff on ${cutoff}: after it, ${consequence}.`;
  else if (daysLeft === 0) summary = `The V1 cutoff is today (${cutoff}): ${consequence}.`;
  else
    summary = `The V1 cutoff (${cutoff}) passed ${-daysLeft} day${daysLeft === -1 ? "" : "s"} ago: ${consequence}; remaining V1 uses may already fail.`;
  return { cutoff, daysLeft, passed: daysLeft < 0, summary };
}
