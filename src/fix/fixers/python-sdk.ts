/** Placeholder until the fixer lands: applies to no file. */
import type { Transform } from "../types.js";

export const pythonSdkFixer: Transform = {
  id: "v2-sdk",
  title: "python-sdk",
  rewrites: [],
  marks: [],
  appliesTo: () => false,
  apply: (text) => ({ text, events: [] }),
};
