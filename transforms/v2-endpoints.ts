/** Placeholder until the codemod lands: changes nothing. */
import type { API, FileInfo } from "jscodeshift";

export const meta = {
  id: "v2-endpoints",
  title: "v2-endpoints",
  rewrites: [] as string[],
  marks: [] as string[],
};

export default function transform(file: FileInfo, _api: API): string {
  return file.source;
}
