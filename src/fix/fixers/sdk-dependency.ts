/** Placeholder until the fixer lands: applies to no file. */
import type { Transform } from "../types.js";

export const sdkDependencyFixer: Transform = {
  id: "sdk-dependency",
  title: "sdk-dependency",
  rewrites: [],
  marks: [],
  appliesTo: () => false,
  apply: (text) => ({ text, events: [] }),
};
