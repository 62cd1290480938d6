/** The V1 compat module as a support module of the v2-sdk transform: written once per package, beside the client module. */
import type { SupportModule } from "../../types.js";
import { COMPAT_MODULE_NAME } from "./template.js";
import { compatModuleSource } from "./writer.js";

export const COMPAT_MODULE: SupportModule = {
  name: COMPAT_MODULE_NAME,
  // Beside the module that constructs the V1 client, where the app keeps its ComfyDeploy setup.
  anchorRules: ["v1-sdk-client"],
  source: compatModuleSource,
  announce: {
    kind: "rewrite",
    ruleId: "v1-sdk-call",
    line: 1,
    message: `added ${COMPAT_MODULE_NAME}: what the migrated code still needs from V1, implemented on V2 (see its header)`,
  },
};
