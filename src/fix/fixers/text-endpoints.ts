/** Placeholder until the fixer lands: applies to no file. */
import type { Transform } from "../types.js";

export const textEndpointsFixer: Transform = {
  id: "v2-endpoints",
  title: "text-endpoints",
  rewrites: [],
  marks: [],
  appliesTo: () => false,
  apply: (text) => ({ text, events: [] }),
};
