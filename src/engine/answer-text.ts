import { canonicalize } from './canonical.ts';
import type { ModelResponse } from './model-call.ts';

/**
 * A response as an answer, in canonical JSON: everything a replay reads from it, without the note of
 * which model the endpoint said served it. Two copies of one answer fetched at different times (a
 * shard each, another `system_fingerprint`) are the same answer; a different text is not.
 */
export function answerText(response: ModelResponse): string {
  const { served: _served, ...answer } = response;
  return canonicalize(answer);
}
