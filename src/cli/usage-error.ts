/** A command line that does not fit the contract (docs/formats.md, "Command output"); exit status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
