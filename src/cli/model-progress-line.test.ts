import { describe, expect, it } from 'vitest';
import { modelProgressLine, terminalModelProgress } from './model-progress-line.ts';

const p = (over: Partial<Parameters<typeof modelProgressLine>[0]> = {}) => ({ queued: 0, inFlight: 0, done: 0, failed: 0, cacheHits: 0, held: false, ...over });

describe('model progress line', () => {
  it('says what was sent, what waits, what the cache answered and what failed', () => {
    expect(modelProgressLine(p({ done: 116, inFlight: 4, queued: 300, cacheHits: 50, failed: 1 }))).toBe('blame: model: 120 sent (4 in flight), 300 waiting, 50 from the cache, 1 failed');
    expect(modelProgressLine(p({ cacheHits: 7 }))).toBe('blame: model: 0 sent, 7 from the cache');
  });

  it('rewrites one terminal line at most every interval, and clears it at the end', () => {
    const written: string[] = [];
    let t = 0;
    const line = terminalModelProgress({ write: (s: string) => written.push(s) }, 250, () => t);
    line.end();
    expect(written).toEqual([]);
    line.update(p({ done: 1 }));
    t = 100;
    line.update(p({ done: 2 }));
    t = 300;
    line.update(p({ done: 3 }));
    line.end();
    expect(written).toEqual(['\rblame: model: 1 sent, 0 from the cache\x1b[K', '\rblame: model: 3 sent, 0 from the cache\x1b[K', '\r\x1b[K']);
  });
});
