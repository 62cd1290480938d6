/** `npm run docs`: regenerates the README's rule reference from the catalog. */
import { readFileSync, writeFileSync } from "node:fs";
import { withRulesSection } from "./rules-markdown.js";

const path = new URL("../../../README.md", import.meta.url);
const before = readFileSync(path, "utf8");
const after = withRulesSection(before);
if (after !== before) writeFileSync(path, after);
process.stdout.write(after === before ? "README rules section is up to date\n" : "README rules section updated\n");
