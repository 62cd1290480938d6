/** What `pr` (and `campaign run --open-prs`) names its branch and pull request unless told otherwise. */
export const DEFAULT_BRANCH = "comfydeploy-migrate/v2";
export const DEFAULT_TITLE = "Migrate ComfyDeploy V1 API use to V2";
