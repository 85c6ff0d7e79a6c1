import { describe, expect, it } from 'vitest';
import { reportFileName } from './reportFileName.ts';

describe('reportFileName', () => {
  it('is the session name with the report suffix', () => {
    expect(reportFileName('refund-policy')).toBe('refund-policy.agentblame.html');
  });
  it('replaces characters file systems reject and strips leading dots and trailing spaces', () => {
    expect(reportFileName('../a/b\\c:d*e?"f"<g>|h\u0000 ')).toBe('_a_b_c_d_e__f__g__h_.agentblame.html');
    expect(reportFileName('.hidden. ')).toBe('hidden.agentblame.html');
  });
  it('falls back to "session" for an empty name and caps the length', () => {
    expect(reportFileName('  ')).toBe('session.agentblame.html');
    expect(reportFileName('x'.repeat(500))).toBe(`${'x'.repeat(120)}.agentblame.html`);
  });
});
