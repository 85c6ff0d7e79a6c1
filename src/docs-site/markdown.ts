/**
 * The small part of Markdown the project's own docs use (headings, paragraphs, fenced code, lists,
 * pipe tables, block quotes, rules; code spans, links, images, bold and italics), to HTML. Only for our
 * own docs at build time: everything is escaped, and raw HTML in the text shows as text. Headings
 * get GitHub's anchors, so `#noise-and-replay` links keep working. Link targets go through
 * `rewriteLink`, which may drop a link (null: the text stays, unlinked).
 */

export interface MarkdownOptions {
  /** The href a link's target becomes, or null to show the text without a link. */
  rewriteLink?: (target: string) => string | null;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** GitHub's heading anchor: lower case, punctuation dropped (hyphens and underscores kept), spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** Inline Markdown of one block's text to HTML. */
export function inline(text: string, options: MarkdownOptions = {}): string {
  // Scanned left to right: a code span's content is not Markdown; a link's label may hold code spans.
  const token = /(`+)([\s\S]*?)\1|(!?)\[((?:`[^`]*`|[^\]`])+)\]\(([^)\s]+)\)/g;
  let html = '';
  let last = 0;
  for (const match of text.matchAll(token)) {
    html += prose(text.slice(last, match.index));
    if (match[1] !== undefined) html += `<code>${escapeHtml(match[2].trim() === '' ? match[2] : match[2].replace(/^ (.*) $/s, '$1'))}</code>`;
    else {
      const href = options.rewriteLink ? options.rewriteLink(match[5]) : match[5];
      if (match[3] === '!') {
        // An image: shown where it is shipped; otherwise its description stands in for it.
        html += href === null ? `<em>${escapeHtml(match[4])}</em>` : `<img src="${escapeHtml(href)}" alt="${escapeHtml(match[4])}">`;
      } else {
        const label = inline(match[4], options);
        html += href === null ? label : `<a href="${escapeHtml(href)}"${/^https?:/.test(href) ? ' rel="noreferrer"' : ''}>${label}</a>`;
      }
    }
    last = match.index + match[0].length;
  }
  return html + prose(text.slice(last));
}

/** Text outside code spans and links: escaped, with bold and italics. */
function prose(text: string): string {
  let html = escapeHtml(text);
  html = html.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
  html = html.replace(/(^|[^\w*])\*([^*\s][^*]*?)\*(?![\w*])/g, '$1<em>$2</em>');
  return html;
}

const FENCE = /^\s*```/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^(\s*)([-*]|\d+[.)])\s+(.*)$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/** A whole Markdown document (or a list item's body) to HTML. */
export function markdownToHtml(source: string, options: MarkdownOptions = {}): string {
  return blocks(source.replace(/\r\n?/g, '\n').split('\n'), options).join('\n');
}

function blocks(lines: string[], options: MarkdownOptions): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === '') {
      i++;
      continue;
    }
    if (FENCE.test(line)) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !FENCE.test(lines[i])) body.push(lines[i++]);
      i++; // the closing fence
      out.push(`<pre><code>${escapeHtml(dedent(body).join('\n'))}</code></pre>`);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = heading[1].length;
      out.push(`<h${level} id="${escapeHtml(slug(heading[2].replace(/`/g, '')))}">${inline(heading[2], options)}</h${level}>`);
      i++;
      continue;
    }
    if (RULE.test(line)) {
      out.push('<hr>');
      i++;
      continue;
    }
    if (line.trimStart().startsWith('|') && i + 1 < lines.length && TABLE_SEPARATOR.test(lines[i + 1])) {
      const rows: string[] = [line];
      i += 2;
      while (i < lines.length && lines[i].trimStart().startsWith('|')) rows.push(lines[i++]);
      out.push(table(rows, options));
      continue;
    }
    if (line.startsWith('>')) {
      const quoted: string[] = [];
      while (i < lines.length && lines[i].startsWith('>')) quoted.push(lines[i++].replace(/^>\s?/, ''));
      out.push(`<blockquote>${blocks(quoted, options).join('\n')}</blockquote>`);
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet && bullet[1].length < 4) {
      const consumed = list(lines, i, options);
      out.push(consumed.html);
      i = consumed.next;
      continue;
    }
    const paragraph: string[] = [];
    while (i < lines.length && lines[i].trim() !== '' && !startsBlock(lines, i)) paragraph.push(lines[i++].trim());
    if (paragraph.length === 0) paragraph.push(lines[i++].trim());
    out.push(`<p>${inline(paragraph.join('\n'), options)}</p>`);
  }
  return out;
}

function startsBlock(lines: string[], i: number): boolean {
  const line = lines[i];
  return FENCE.test(line) || HEADING.test(line) || line.startsWith('>') || (BULLET.test(line) && /^\s{0,3}\S/.test(line)) ||
    (line.trimStart().startsWith('|') && i + 1 < lines.length && TABLE_SEPARATOR.test(lines[i + 1]));
}

/** A list from line `start`: items at its indentation; deeper lines belong to the item above. */
function list(lines: string[], start: number, options: MarkdownOptions): { html: string; next: number } {
  const first = BULLET.exec(lines[start])!;
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const items: string[][] = [];
  let i = start;
  while (i < lines.length) {
    const line = lines[i];
    const bullet = BULLET.exec(line);
    if (bullet && bullet[1].length === indent && /\d/.test(bullet[2]) === ordered) {
      items.push([bullet[3]]);
      i++;
      continue;
    }
    if (line.trim() === '') {
      // A blank line ends the list unless the next line continues the item (indented) or starts another item.
      const next = lines[i + 1];
      if (next === undefined) break;
      const nextBullet = BULLET.exec(next);
      const continues = leading(next) > indent || (nextBullet !== null && nextBullet[1].length === indent && /\d/.test(nextBullet[2]) === ordered);
      if (!continues) break;
      items[items.length - 1].push('');
      i++;
      continue;
    }
    if (leading(line) > indent) {
      items[items.length - 1].push(line);
      i++;
      continue;
    }
    break;
  }
  const body = items.map((item) => {
    const [head, ...rest] = item;
    const inner = blocks([head, ...dedent(rest)], options);
    // A one-paragraph item shows without its paragraph margins; items with more keep their blocks.
    const single = inner.length === 1 && inner[0].startsWith('<p>') ? inner[0].slice(3, -4) : inner.length > 1 && inner[0].startsWith('<p>') ? inner[0].slice(3, -4) + '\n' + inner.slice(1).join('\n') : inner.join('\n');
    return `<li>${single}</li>`;
  });
  const tag = ordered ? 'ol' : 'ul';
  return { html: `<${tag}>\n${body.join('\n')}\n</${tag}>`, next: i };
}

function leading(line: string): number {
  return line.length - line.trimStart().length;
}

/** Removes the indentation the non-blank lines share. */
function dedent(lines: string[]): string[] {
  const depth = Math.min(...lines.filter((l) => l.trim() !== '').map(leading));
  return Number.isFinite(depth) ? lines.map((l) => l.slice(Math.min(depth, leading(l)))) : lines;
}

function cells(row: string): string[] {
  let text = row.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1);
  // A pipe inside a code span or escaped with a backslash does not split cells.
  const out: string[] = [];
  let cell = '';
  let inCode = false;
  for (let k = 0; k < text.length; k++) {
    const c = text[k];
    if (c === '\\' && text[k + 1] === '|') {
      cell += '|';
      k++;
    } else if (c === '`') {
      inCode = !inCode;
      cell += c;
    } else if (c === '|' && !inCode) {
      out.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  out.push(cell.trim());
  return out;
}

function table(rows: string[], options: MarkdownOptions): string {
  const [head, ...body] = rows.map(cells);
  const th = head.map((c) => `<th scope="col">${inline(c, options)}</th>`).join('');
  const trs = body.map((r) => `<tr>${r.map((c) => `<td>${inline(c, options)}</td>`).join('')}</tr>`).join('\n');
  return `<div class="table"><table>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${trs}\n</tbody>\n</table></div>`;
}
