import { describe, expect, it } from 'vitest';
import { gateVerdict, pairedFailureRateChange } from '../engine/regression/verdict.ts';
import { junitReport, markdownSummary, markdownText, xmlText, type JudgedGate } from './gate-output.ts';
import type { StudyComparison } from '../engine/compare-studies.ts';

/** A step name a trace could carry: markdown, HTML, a mention and XML's specials. */
const HOSTILE = 'a|b <img src=x onerror=alert(1)> [link](javascript:x) **@team** & "q" \'s` \u2028x';

function hostileGate(): JudgedGate {
  const failureRate = pairedFailureRateChange(Array.from({ length: 10 }, (_, i) => ({ failsBefore: false, failsNow: i < 8 })), 0.05);
  const verdict = gateVerdict(failureRate, [{ step: HOSTILE, rise: 0.5, ci: [0.3, 0.7], before: 0.1, now: 0.6 }], 0.1);
  const comparison = { delta: 0.05, paired: true, before: { failures: 0, analyzed: 0 }, after: { failures: 8, analyzed: 8 }, shared: 0, steps: [], cases: [] } satisfies StudyComparison;
  return { verdict, source: { kind: 'compare', against: `earlier ${HOSTILE}`, comparison } };
}

describe('the gate files escape names from files', () => {
  it('keeps a hostile name inside its markdown cell, with no link, image, HTML, emphasis or mention', () => {
    const cell = markdownText(HOSTILE);
    expect(cell).not.toMatch(/(?<!\\)[|[\]()*`<>]/);
    expect(cell).not.toContain('@');
    expect(cell).not.toMatch(/[\n\u2028]/);
    const markdown = markdownSummary(hostileGate());
    const row = markdown.split('\n').find((l) => l.startsWith('|') && l.includes('onerror'))!;
    expect(row.split(/(?<!\\)\|/).length - 2).toBe(6);
    expect(markdown).not.toContain('<img');
    expect(markdown).not.toContain('](');
  });

  it('writes well-formed XML entities in text and attributes', () => {
    expect(xmlText('<a b="c">&\'\n\u0001\ud800')).toBe('&lt;a b=&quot;c&quot;&gt;&amp;&apos;&#10;');
    const xml = junitReport(hostileGate());
    expect(xml).not.toContain('<img');
    expect(xml).toContain('name="step a|b &lt;img src=x onerror=alert(1)&gt; [link](javascript:x) **@team** &amp; &quot;q&quot; &apos;s` \u2028x"');
    expect(xml.match(/<failure /g)).toHaveLength(2);
  });
});
