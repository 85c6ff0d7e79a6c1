import { describe, expect, it } from 'vitest';
import { clipText, escapeHtml } from './escape.ts';

describe('escapeHtml', () => {
  it('escapes the five characters that can start markup or end an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  });
  it('leaves other text, including U+2028/U+2029, as it is', () => {
    expect(escapeHtml('plain\u2028text\u2029 ]]> javascript:')).toBe('plain\u2028text\u2029 ]]&gt; javascript:');
  });
});

describe('clipText', () => {
  it('keeps short text whole', () => {
    expect(clipText('abc', 3)).toBe('abc');
  });
  it('cuts long text and says how much it cut', () => {
    expect(clipText('abcdef', 4)).toBe('abcd… (2 more characters)');
  });
  it('never splits a surrogate pair', () => {
    expect(clipText('ab\u{1f600}cd', 3)).toBe('ab… (4 more characters)');
  });
});
