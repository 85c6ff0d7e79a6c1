/**
 * Sizes past which untrusted definitions and files are refused or cut, so that no single case or
 * file can crash a run or blow up the results (docs/pipelines.md, "Security and limits"). Every limit is checked where
 * the data enters (importers, the sandbox boundary) with an error naming the place.
 */

/**
 * Deepest nesting of plain data: case inputs and recorded outputs in a file, a definition's own
 * cases, and what a step returns. Structured cloning (how data reaches a worker and comes back)
 * fails a few thousand levels down, so data is refused well before that, with its path.
 */
export const MAX_DATA_DEPTH = 200;

/** Longest name of a step, fix or pipeline, and longest case id (characters). */
export const MAX_NAME_LENGTH = 200;

/** Longest error message a case keeps (characters); a longer one is cut, with a note saying so. */
export const MAX_MESSAGE_LENGTH = 2000;

/**
 * Largest step output a case's result keeps for display (factual and all-fixed outputs), measured
 * as characters of JSON. The analysis itself uses outputs of any size; a bigger one is replaced in
 * the result by a note, so results stay small however much a definition returns.
 */
export const MAX_KEPT_OUTPUT_CHARS = 100_000;

/**
 * Characters of JSON of step outputs that all of a study's results keep together (page and
 * command): each case keeps at most its equal share, so 20 cases keep up to 1 000 000 characters
 * each (still at most MAX_KEPT_OUTPUT_CHARS per step) and 200 000 cases 100 each. Beyond the
 * share an output is replaced by a note; the analysis itself always sees whole outputs.
 */
export const MAX_KEPT_OUTPUTS_TOTAL = 20_000_000;

/**
 * Each step's fix alone (a result's `aloneOutputs`): kept for cases of at most this many players,
 * and within MAX_KEPT_ALONE_OUTPUT_CHARS of JSON a case (besides its share of the total), so a
 * case's result grows by a bounded amount however many steps replay its run.
 */
export const MAX_ALONE_OUTPUT_PLAYERS = 16;
export const MAX_KEPT_ALONE_OUTPUT_CHARS = 1_000_000;

/**
 * Most characters a model request's messages (and llm.choose's options) may hold together: about
 * 250 000 tokens, past any model's context. A bigger prompt fails its step before it is hashed,
 * sent to the host or to an endpoint.
 */
export const MAX_PROMPT_CHARS = 1_000_000;

/**
 * Most distinct model requests one case may ask for over all its rounds (every coalition, world
 * and step together): an 8-step agent analysed exactly asks for at most 8 x 256. A definition
 * asking for more (a loop that catches its suspensions and asks again and again) fails its case
 * before any of them is fetched, so a stranger's definition cannot run up an endpoint's bill.
 */
export const MAX_MODEL_REQUESTS_PER_CASE = 10_000;
