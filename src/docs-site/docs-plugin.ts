/**
 * Vite plugin: the docs as static pages (docs-pages.ts). The build writes them under `docs/` of
 * the output; the dev server (`npm run dev`) renders them on request from the files as they are now.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { buildDocPages, type DocSource } from './docs-pages.ts';

function readDocs(root: string): DocSource[] {
  const dir = join(root, 'docs');
  const files = readdirSync(dir).filter((name) => name.endsWith('.md')).sort();
  return [{ file: 'README.md', text: readFileSync(join(root, 'README.md'), 'utf8') }, ...files.map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') }))];
}

export function docsPages(root: string): Plugin {
  return {
    name: 'agentblame-docs',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const path = (request.url ?? '').split(/[?#]/)[0].replace(/^\//, '');
        if (!path.startsWith('docs/')) return next();
        const wanted = path === 'docs/' ? 'docs/index.html' : path;
        const page = buildDocPages(readDocs(root)).find((p) => p.path === wanted);
        if (!page) return next();
        response.setHeader('Content-Type', wanted.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/html; charset=utf-8');
        response.end(page.html);
      });
    },
    generateBundle() {
      for (const page of buildDocPages(readDocs(root))) this.emitFile({ type: 'asset', fileName: page.path, source: page.html });
    },
  };
}
