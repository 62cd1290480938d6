/** Placeholder until the fixer lands: applies to no file. */
import type { Transform } from "../types.js";

export const nodePinFixer: Transform = {
  id: "node-pin",
  title: "node-pin",
  rewrites: [],
  marks: [],
  appliesTo: () => false,
  apply: (text) => ({ text, events: [] }),
};
