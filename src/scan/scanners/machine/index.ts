/** What the GPU machine runs: ComfyUI node pins and the partner worker image. */
import type { FileScanner } from "../../scanner.js";
import { nodePinScanner } from "./node-pins.js";
import { workerImageScanner } from "./worker-image.js";

export const MACHINE_SCANNERS: readonly FileScanner[] = [nodePinScanner, workerImageScanner];
