/**
 * A problem with the question asked of why: which call (`call`) or the pattern that says what the
 * decision is (`match`). The message is neutral; each front end names the input in its own words
 * (`inputProblem`): the command by its flags (`--why`, `--match`), the page by its fields (Match),
 * so the page never shows a flag it has no way to type.
 */
export type WhyInput = 'call' | 'match';

export class WhySelectionError extends Error {
  override name = 'WhySelectionError';
  constructor(
    readonly input: WhyInput,
    message: string,
  ) {
    super(message);
  }
}

/** What each input is called where the question is asked (an empty name: the message says enough). */
export type WhyInputNames = Readonly<Record<WhyInput, string>>;

/** The command's flags. */
export const WHY_FLAG_NAMES: WhyInputNames = { call: '--why', match: '--match' };

/** The problem, headed by the input's name where it is asked. */
export function inputProblem(error: WhySelectionError, names: WhyInputNames): string {
  const name = names[error.input];
  return name === '' ? error.message : `${name}: ${error.message}`;
}
