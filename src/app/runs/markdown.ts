/**
 * A small, safe markdown renderer for model answers in the run view. The text comes from a trace
 * (untrusted), so it is HTML-escaped first and only then are a few constructs turned into markup:
 * headings, emphasis, inline and fenced code, lists, paragraphs and links whose address is
 * http(s) (opened with rel="noopener noreferrer"). Nothing else from the text becomes markup, so
 * no tag, attribute or script in a trace reaches the page.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Inline constructs on already escaped text: code spans first (nothing inside them is markup), then links and emphasis. */
function inline(escaped: string): string {
  const pieces = escaped.split(/(`[^`\n]+`)/);
  return pieces
    .map((piece, k) => {
      if (k % 2 === 1) return `<code>${piece.slice(1, -1)}</code>`;
      return piece
        .replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s()]+)\)/g, (_, label: string, href: string) => `<a href="${href}" target="_blank" rel="noopener noreferrer">${label}</a>`)
        .replace(/\*\*([^*\n]+)\*\*/g, '<strong>$1</strong>')
        .replace(/(^|[^_\w])__([^_\n]+)__(?!\w)/g, '$1<strong>$2</strong>')
        .replace(/(^|[^*\w])\*([^*\s][^*\n]*?)\*(?!\w)/g, '$1<em>$2</em>')
        .replace(/(^|[^_\w])_([^_\s][^_\n]*?)_(?!\w)/g, '$1<em>$2</em>');
    })
    .join('');
}

/** Renders markdown text as HTML that holds only the whitelisted elements (h1-h6, p, em, strong, code, pre, ul, ol, li, a). */
export function renderMarkdown(text: string): string {
  const lines = escapeHtml(text.replace(/\r\n?/g, '\n')).split('\n');
  const out: string[] = [];
  let paragraph: string[] = [];
  let list: { tag: 'ul' | 'ol'; items: string[] } | null = null;
  const flushParagraph = () => {
    if (paragraph.length > 0) out.push(`<p>${paragraph.map(inline).join('<br>')}</p>`);
    paragraph = [];
  };
  const flushList = () => {
    if (list) out.push(`<${list.tag}>${list.items.map((item) => `<li>${inline(item)}</li>`).join('')}</${list.tag}>`);
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^\s*```/.exec(line);
    if (fence) {
      flushParagraph();
      flushList();
      const code: string[] = [];
      let j = i + 1;
      while (j < lines.length && !/^\s*```\s*$/.test(lines[j])) code.push(lines[j++]);
      out.push(`<pre><code>${code.join('\n')}</code></pre>`);
      i = j;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      flushParagraph();
      flushList();
      out.push(`<h${heading[1].length}>${inline(heading[2])}</h${heading[1].length}>`);
      continue;
    }
    const item = /^\s*(?:([-*+])|(\d{1,9})[.)])\s+(.*)$/.exec(line);
    if (item) {
      flushParagraph();
      const tag = item[1] ? 'ul' : 'ol';
      if (list && list.tag !== tag) flushList();
      list ??= { tag, items: [] };
      list.items.push(item[3]);
      continue;
    }
    if (line.trim() === '') {
      flushParagraph();
      flushList();
      continue;
    }
    // A line indented under a list item continues it.
    if (list && /^\s+\S/.test(line)) {
      list.items[list.items.length - 1] += ` ${line.trim()}`;
      continue;
    }
    flushList();
    paragraph.push(line);
  }
  flushParagraph();
  flushList();
  return out.join('\n');
}

/** Whether text looks like markdown worth rendering (rather than plain prose, which shows as it is). */
export function looksLikeMarkdown(text: string): boolean {
  return /^\s*(#{1,6}\s|[-*+]\s|\d{1,9}[.)]\s|```)|\*\*[^*\n]+\*\*|`[^`\n]+`|\[[^\]\n]+\]\(https?:\/\//m.test(text);
}
