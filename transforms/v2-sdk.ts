/** Placeholder until the codemod lands: changes nothing. */
import type { API, FileInfo } from "jscodeshift";

export const meta = {
  id: "v2-sdk",
  title: "v2-sdk",
  rewrites: [] as string[],
  marks: [] as string[],
};

export default function transform(file: FileInfo, _api: API): string {
  return file.source;
}
