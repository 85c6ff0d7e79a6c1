/**
 * The digest a check file keeps of its recorded call: SHA-256 of the canonical JSON of the call's
 * context and recorded answer. It ties the check to the call rather than to the file's bytes, so
 * the command and the page compute the same digest from the run, and a file re-saved with other
 * spacing still matches, while any change to what the model saw is refused.
 */
import { canonicalize } from '../engine/canonical.ts';
import { sha256 } from '../engine/sha256.ts';
import type { WhyMessage } from './context.ts';
import type { Reply } from './decision.ts';

export function callDigest(messages: readonly WhyMessage[], recorded: Reply): string {
  const text = canonicalize({ messages, recorded });
  let hex = '';
  for (const b of sha256(new TextEncoder().encode(text))) hex += b.toString(16).padStart(2, '0');
  return hex;
}
