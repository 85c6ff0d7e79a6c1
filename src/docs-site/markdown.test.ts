import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inline, markdownToHtml, slug } from './markdown.ts';
import { buildDocPages, docLink } from './docs-pages.ts';

describe('markdown to HTML', () => {
  it('escapes raw HTML everywhere, also in code and link labels', () => {
    expect(markdownToHtml('<script>alert(1)</script> & "x"')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;</p>');
    expect(inline('`<b>`')).toBe('<code>&lt;b&gt;</code>');
    expect(inline('[<i>](a.md)')).toBe('<a href="a.md">&lt;i&gt;</a>');
    expect(markdownToHtml('```\n<tag>\n```')).toBe('<pre><code>&lt;tag&gt;</code></pre>');
  });

  it('renders code spans, links with code in their label, images, bold and italics', () => {
    expect(inline('![the batch view](docs/images/workbench.png)', { rewriteLink: () => null })).toBe('<em>the batch view</em>');
    expect(inline('![a <b>](x.png)')).toBe('<img src="x.png" alt="a &lt;b&gt;">');
    expect(inline('see [`src/README.md`](../src/README.md), **bold** and *it*')).toBe(
      'see <a href="../src/README.md"><code>src/README.md</code></a>, <strong>bold</strong> and <em>it</em>',
    );
    expect(inline('a_b_c and 2 * 3 * 4')).toBe('a_b_c and 2 * 3 * 4');
    expect(inline('`[not](a link)`')).toBe('<code>[not](a link)</code>');
    expect(inline('[x](gone.md)', { rewriteLink: () => null })).toBe('x');
  });

  it('gives headings GitHub anchors', () => {
    expect(slug('Noise and replay')).toBe('noise-and-replay');
    expect(slug('Results, sharding & merging (5.3)')).toBe('results-sharding--merging-53');
    expect(markdownToHtml('## The `--shard` flag')).toBe('<h2 id="the---shard-flag">The <code>--shard</code> flag</h2>');
  });

  it('renders lists with continuation lines and nested lists, tables with pipes in code, quotes and rules', () => {
    expect(markdownToHtml('- one\n  more\n- two\n  - inner')).toBe('<ul>\n<li>one\nmore</li>\n<li>two\n<ul>\n<li>inner</li>\n</ul></li>\n</ul>');
    expect(markdownToHtml('1. a\n2. b')).toBe('<ol>\n<li>a</li>\n<li>b</li>\n</ol>');
    expect(markdownToHtml('| a | b |\n|---|:-:|\n| `x|y` | 2 |')).toBe(
      '<div class="table"><table>\n<thead><tr><th scope="col">a</th><th scope="col">b</th></tr></thead>\n<tbody>\n<tr><td><code>x|y</code></td><td>2</td></tr>\n</tbody>\n</table></div>',
    );
    expect(markdownToHtml('> quoted\n\n---')).toBe('<blockquote><p>quoted</p></blockquote>\n<hr>');
  });
});

describe('the docs as pages', () => {
  const shipped = new Set(['method.md', 'formats.md']);

  it('points links between docs at their pages and drops links to files not shipped', () => {
    expect(docLink('method.md', 'formats.md#trace-files', shipped)).toBe('formats.html#trace-files');
    expect(docLink('method.md', '#modes', shipped)).toBe('#modes');
    expect(docLink('method.md', '../README.md', shipped)).toBe('readme.html');
    expect(docLink('method.md', '../src/engine/noise.ts', shipped)).toBeNull();
    expect(docLink('README.md', 'docs/method.md', shipped)).toBe('method.html');
    expect(docLink('README.md', 'bench/README.md', shipped)).toBeNull();
    expect(docLink('method.md', 'https://example.org/x', shipped)).toBe('https://example.org/x');
  });

  it('builds a page for the README and every doc of the repository, with every link between them resolving', () => {
    const root = join(import.meta.dirname, '..', '..');
    const docs = [
      { file: 'README.md', text: readFileSync(join(root, 'README.md'), 'utf8') },
      ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((file) => ({ file, text: readFileSync(join(root, 'docs', file), 'utf8') })),
    ];
    const pages = buildDocPages(docs);
    const paths = new Set(pages.map((p) => p.path));
    expect(paths).toContain('docs/index.html');
    expect(paths).toContain('docs/readme.html');
    for (const doc of docs.slice(1)) expect(paths).toContain(`docs/${doc.file.replace(/\.md$/, '.html')}`);
    for (const page of pages.filter((p) => p.path.endsWith('.html'))) {
      for (const [, href] of page.html.matchAll(/href="([^"]+)"/g)) {
        if (/^(https?:|#|data:)/.test(href) || href === 'docs.css' || href === '../index.html') continue;
        const [file, anchor] = href.split('#');
        const target = pages.find((p) => p.path === `docs/${file}`);
        expect(target, `${page.path} links to ${href}`).toBeDefined();
        if (anchor) expect(target!.html, `${page.path} links to ${href}`).toContain(`id="${anchor}"`);
      }
    }
  });
});
