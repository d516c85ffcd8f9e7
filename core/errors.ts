/**
 * Harness errors: the tool or its input is wrong (never the target). Each has a stable code from
 * {@link HARNESS_ERROR_CODES}; code matches on `.code`, never on the message.
 */

/** Every harness error code with its one-line meaning; README.md lists the same table. */
export const HARNESS_ERROR_CODES = {
  CNF_ERR_SPEC_INVALID: 'the OpenAPI document cannot be read or is not valid',
  CNF_ERR_CONFIG_INVALID: 'the configuration file or a command-line option is not valid',
  CNF_ERR_TARGET_UNREACHABLE: 'the target did not answer a probe request',
  CNF_ERR_SECRET_MISSING: 'an environment variable named by the configuration is not set',
  CNF_ERR_FAULT_UNKNOWN: 'a fault id that the reference server does not have',
  CNF_ERR_RUNNER: 'the test runner failed to start or crashed',
  CNF_ERR_ADAPTER: 'a target adapter capability failed, so a stateful scenario could not set up its state',
  CNF_ERR_INTERRUPTED: 'the run was interrupted (SIGINT or SIGTERM): the reports hold what ran before the cut',
  CNF_ERR_ROLE_MISSING: 'a role the selected operations need has no token (set its variable or pass --allow-missing-roles)',
  CNF_ERR_PORT_UNAVAILABLE: '`serve` cannot listen on the port: in use, not allowed, or the address is not on this machine',
  CNF_ERR_STATE_IN_USE: '`serve --state FILE`: another live reference server holds the state file (its lock names it)',
  CNF_ERR_HAR_INVALID: 'a HAR file cannot be read, is cut short or is not HAR 1.2 (`conformance check`, `diff --har`)',
  CNF_ERR_DATA_INVALID: 'a data file (`serve --data`, `startReferenceServer({ data })`) cannot be read, does not fit `spec/data.schema.json` or breaks a rule of the store; the line names the file, the line and the field, and nothing is loaded',
} as const;

/** A stable harness error code (`CNF_ERR_*`). */
export type HarnessErrorCode = keyof typeof HARNESS_ERROR_CODES;

/**
 * An error of the harness itself; the CLI turns it into exit code 2.
 * @param code stable code from {@link HARNESS_ERROR_CODES}
 * @param message readable explanation for a person, naming the file or option at fault
 */
export class HarnessError extends Error {
  readonly code: HarnessErrorCode;
  constructor(code: HarnessErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HarnessError';
    this.code = code;
  }
}
