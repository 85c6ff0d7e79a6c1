import type { ModelProgress } from '../model/index.ts';

/**
 * One line of the command's live model progress (stderr, on a terminal only), e.g.
 * "blame: model: 120 sent (4 in flight), 300 waiting, 50 from the cache, 1 failed".
 */
export function modelProgressLine(p: ModelProgress): string {
  const parts = [`${p.done + p.inFlight} sent${p.inFlight > 0 ? ` (${p.inFlight} in flight)` : ''}`];
  if (p.queued > 0) parts.push(`${p.queued} waiting`);
  parts.push(`${p.cacheHits} from the cache`);
  if (p.failed > 0) parts.push(`${p.failed} failed`);
  return `blame: model: ${parts.join(', ')}`;
}

/**
 * A throttled writer of that line over itself (carriage return, erase to end of line) while the
 * requests go on; `end()` clears it so the tables or JSON that follow start on a clean line.
 */
export function terminalModelProgress(stream: { write(text: string): unknown }, everyMs = 250, now: () => number = Date.now) {
  let last = -Infinity;
  let shown = false;
  return {
    update(p: ModelProgress): void {
      const t = now();
      if (t - last < everyMs) return;
      last = t;
      shown = true;
      stream.write(`\r${modelProgressLine(p)}\x1b[K`);
    },
    end(): void {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
