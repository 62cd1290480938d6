/** The severities `--fail-on` (and the config's `failOn`) take: findings at or above it fail the run. */
export const FAIL_ON_CHOICES = ["error", "warning", "info", "none"] as const;
