/** A pipeline definition that does not fit docs/formats.md ("Pipeline definitions"); the message names the step. */
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

/**
 * A model step asked for a response the host has not fetched yet. Not a failure: the step's run
 * is abandoned (never cached) and the request is reported as pending, so the host can fetch it
 * and replay. The engine raises it whether or not the definition caught the llm call's throw.
 */
export class StepSuspended extends Error {
  override name = 'StepSuspended';
  constructor(readonly step: string) {
    super(`step "${step}" is waiting for a model response`);
  }
}
