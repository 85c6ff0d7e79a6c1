import { createHash } from 'node:crypto';
import { useNativeSha256 } from '../../engine/model-call.ts';

/**
 * Request keys through Node's SHA-256 (the command, its analysis workers, the bench): the same
 * keys as the engine's own hash (src/engine/request-key.test.ts), in a fraction of the time.
 */
export function useNodeSha256(): void {
  useNativeSha256((text) => createHash('sha256').update(text, 'utf8').digest('hex'));
}
