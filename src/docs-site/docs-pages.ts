/**
 * The project's docs (docs/*.md and the README) as static HTML pages under `docs/` of the build,
 * so the help overlay links to them and they work offline, from `npm start` and from any static
 * host, with no script. Links between the docs point at their pages; links to repository files
 * that are not shipped (source, bench) keep their text without a link.
 */
import { escapeHtml, markdownToHtml } from './markdown.ts';

export interface DocSource {
  /** File name in docs/ ('method.md'), or 'README.md' for the project's README. */
  file: string;
  text: string;
}

export interface DocPage {
  /** Path inside the build ('docs/method.html'). */
  path: string;
  title: string;
  html: string;
}

/** The page a doc becomes: `method.md` -> `method.html`, the README -> `readme.html`. */
export function pageName(file: string): string {
  return file === 'README.md' ? 'readme.html' : file.replace(/\.md$/, '.html');
}

/** A doc's title: its first heading, else its file name. */
export function titleOf(doc: DocSource): string {
  const heading = /^#\s+(.+)$/m.exec(doc.text);
  return heading ? heading[1].replace(/`/g, '').trim() : doc.file;
}

/**
 * Where a link in `from` points among the pages (relative to docs/), or null when its target is
 * not shipped. `shipped` holds the docs' file names.
 */
export function docLink(from: string, target: string, shipped: ReadonlySet<string>): string | null {
  if (/^(https?:|mailto:)/.test(target) || target.startsWith('#')) return target;
  const [path, hash] = target.split('#', 2) as [string, string | undefined];
  const anchor = hash === undefined ? '' : `#${hash}`;
  // Paths as seen from the repository root.
  const fromRoot = from === 'README.md' ? path : `docs/${path}`;
  const normal = normalize(fromRoot);
  if (normal === 'README.md') return `readme.html${anchor}`;
  if (normal !== null && normal.startsWith('docs/') && shipped.has(normal.slice(5))) return `${pageName(normal.slice(5))}${anchor}`;
  return null;
}

function normalize(path: string): string | null {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

const STYLE = 'docs.css';

function frame(title: string, nav: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'self'; img-src 'self' data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)} · agentblame docs</title>
<link rel="stylesheet" href="${STYLE}">
</head>
<body>
<nav aria-label="Documentation">${nav}</nav>
<main>
${body}
</main>
</body>
</html>
`;
}

/** Every page: one per doc, an index listing them, and the stylesheet (as a page with a path). */
export function buildDocPages(docs: readonly DocSource[]): DocPage[] {
  const shipped = new Set(docs.filter((d) => d.file !== 'README.md').map((d) => d.file));
  const nav = '<a href="../index.html">Workbench</a> · <a href="index.html">All docs</a>';
  const pages: DocPage[] = docs.map((doc) => {
    const title = titleOf(doc);
    const body = markdownToHtml(doc.text, { rewriteLink: (target) => docLink(doc.file, target, shipped) });
    return { path: `docs/${pageName(doc.file)}`, title, html: frame(title, nav, body) };
  });
  const sorted = [...docs].sort((a, b) => (a.file === 'README.md' ? -1 : b.file === 'README.md' ? 1 : a.file.localeCompare(b.file)));
  const list = sorted.map((d) => `<li><a href="${pageName(d.file)}">${escapeHtml(titleOf(d))}</a> <span class="file">${escapeHtml(d.file === 'README.md' ? 'README.md' : `docs/${d.file}`)}</span></li>`).join('\n');
  const index = frame('Documentation', '<a href="../index.html">Workbench</a>', `<h1>Documentation</h1>\n<p>The project's README and its <code>docs/</code> folder, as shipped with this build.</p>\n<ul class="docs">\n${list}\n</ul>`);
  return [{ path: 'docs/index.html', title: 'Documentation', html: index }, ...pages, { path: `docs/${STYLE}`, title: STYLE, html: DOCS_CSS }];
}

/** The docs' stylesheet: the workbench's colours, light and dark (WCAG AA contrast), readable width. */
const DOCS_CSS = `:root { --bg: #f6f7f9; --surface: #ffffff; --text: #1d1d24; --muted: #5d6170; --border: #d9dce3; --accent: #3558d6;
  color-scheme: light dark; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; line-height: 1.55; color: var(--text); background: var(--bg); }
@media (prefers-color-scheme: dark) { :root { --bg: #15161a; --surface: #1e2026; --text: #e8e9ee; --muted: #a3a7b5; --border: #363944; --accent: #9db2ff; } }
body { margin: 0; }
nav { padding: 0.6rem 1rem; border-bottom: 1px solid var(--border); background: var(--surface); }
main { max-width: 52rem; margin: 0 auto; padding: 1rem 1rem 3rem; }
a { color: var(--accent); }
code, pre { font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace; font-size: 0.9em; }
pre { background: var(--surface); border: 1px solid var(--border); border-radius: 6px; padding: 0.6rem 0.8rem; overflow-x: auto; }
.table { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.6rem 0; }
th, td { border: 1px solid var(--border); padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
blockquote { margin: 0.6rem 0; padding-left: 0.8rem; border-left: 3px solid var(--border); color: var(--muted); }
.file { color: var(--muted); font-size: 0.9em; }
@media print { nav { display: none; } }
`;
