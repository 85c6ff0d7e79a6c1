import { describe, expect, it } from 'vitest';
import { looksLikeMarkdown, renderMarkdown } from './markdown.ts';

/** Every tag name in the output: only the whitelist may appear. */
function tags(html: string): string[] {
  return [...new Set([...html.matchAll(/<\/?([a-zA-Z0-9]+)/g)].map((m) => m[1].toLowerCase()))].sort();
}
const ALLOWED = new Set(['a', 'br', 'code', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'ol', 'p', 'pre', 'strong', 'ul']);

describe('the answers\' markdown', () => {
  it('renders headings, emphasis, code, lists and links', () => {
    const html = renderMarkdown('# Plan\n\nSome **bold** and *soft* and `x < y` here.\n\n- one\n- two\n\n1. first\n2. second\n\n```\nlet a = "<b>";\n```\n\nSee [the docs](https://example.com/a?b=1&c=2).');
    for (const part of ['<h1>Plan</h1>', '<strong>bold</strong>', '<em>soft</em>', '<code>x &lt; y</code>', '<ul><li>one</li><li>two</li></ul>', '<ol><li>first</li><li>second</li></ol>', '<pre><code>let a = &quot;&lt;b&gt;&quot;;</code></pre>', '<a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">the docs</a>']) expect(html).toContain(part);
  });

  it('never lets markup from the text through', () => {
    const hostile = [
      '<script>alert(1)</script>',
      '<img src=x onerror="alert(1)">',
      '[click](javascript:alert(1))',
      '[click](JAVASCRIPT:alert(1))',
      '[x](data:text/html,<script>alert(1)</script>)',
      '[x](https://ok.example/" onmouseover="alert(1))',
      '**<svg onload=alert(1)>**',
      '`<iframe src=https://evil.example>`',
      '# <a href="javascript:alert(1)">h</a>',
      '- <style>body{display:none}</style>',
      '```\n</code></pre><script>alert(1)</script>\n```',
    ];
    for (const text of hostile) {
      const html = renderMarkdown(text);
      for (const tag of tags(html)) expect(ALLOWED.has(tag), `${text} -> ${html}`).toBe(true);
      expect(html, text).not.toMatch(/<[^>]*\son\w+\s*=/i);
      expect(html, text).not.toMatch(/href="(?!https?:\/\/)/i);
      // Every quote of the text is escaped, so no attribute can be closed from it.
      expect(html.match(/href="[^"]*"/g)?.every((h) => !h.slice(6, -1).includes('"')) ?? true).toBe(true);
    }
    expect(renderMarkdown('<script>alert(1)</script>')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(renderMarkdown('[click](javascript:alert(1))')).not.toContain('<a');
    expect(renderMarkdown('<img src=x onerror="alert(1)">')).toBe('<p>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</p>');
  });

  it('tells markdown from plain prose', () => {
    expect(looksLikeMarkdown('## Result\nok')).toBe(true);
    // Underscores inside names (window.__x, snake_case) are not emphasis.
    expect(renderMarkdown('call window.__pwned and __init__ or my_var_name')).toBe('<p>call window.__pwned and <strong>init</strong> or my_var_name</p>');
    expect(looksLikeMarkdown('Use `ls` here')).toBe(true);
    expect(looksLikeMarkdown('The answer is 42.')).toBe(false);
    expect(looksLikeMarkdown('5 * 3 = 15 and 2 * 2 = 4')).toBe(false);
  });
});
