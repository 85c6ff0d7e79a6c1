/** A pipeline definition that does not fit DESIGN 4.1; the message names the step. */
export class DefinitionError extends Error {
  override name = 'DefinitionError';
}

/** A step, fix or metric failed while replaying a case; the message names the case and step. */
export class ReplayError extends Error {
  override name = 'ReplayError';
  constructor(
    message: string,
    readonly step: string | null,
  ) {
    super(message);
  }
}
