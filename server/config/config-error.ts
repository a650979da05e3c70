/** Raised when an environment variable is missing or wrong; its message is one line naming it. */
export class ConfigError extends Error {
  override name = "ConfigError";
}
