import { describe, expect, it } from 'vitest';
import { isDemoFile } from './demos.ts';

describe('isDemoFile', () => {
  it('knows a shipped demo by either of its file names', () => {
    expect(isDemoFile('eight-step-agent', 'eight-step-agent.trace.json')).toBe(true);
    expect(isDemoFile('eight-step-agent', 'eight-step-agent.pipeline.js')).toBe(true);
  });

  it('refuses another demo, another file, or an id that is not a demo', () => {
    expect(isDemoFile('eight-step-agent', 'stochastic-rag.trace.json')).toBe(false);
    expect(isDemoFile('eight-step-agent', 'my-agent.trace.json')).toBe(false);
    expect(isDemoFile('my-agent', 'my-agent.trace.json')).toBe(false);
  });
});
