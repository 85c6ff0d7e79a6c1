import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { docsPages } from './src/docs-site/docs-plugin.ts';

/**
 * The Content-Security-Policy of the built pages. Scripts, styles, workers and fetches come only
 * from the page's own origin, so untrusted traces and definitions cannot pull anything in or send
 * anything out. A meta CSP does not govern Web Workers (they take the policy of their own
 * response), so `public/_headers` repeats it, with 'unsafe-eval' for the workers only: the SES
 * compartment that runs pipeline definitions evaluates their source. Only the page may reach a
 * model endpoint (loopback origins); the workers, where definitions run, keep connect-src 'self'.
 */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  // The page's main thread talks to a model endpoint for model steps; loopback only (Ollama,
  // llama.cpp, vLLM on this machine). A hosted endpoint's origin is added by whoever deploys.
  "connect-src 'self' http://localhost:* http://127.0.0.1:*",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Adds the CSP meta tag to built pages only: the dev server injects styles and a client it needs. */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'agentblame-csp',
    apply: 'build',
    transformIndexHtml(html) {
      return html.replace(
        '<meta charset="UTF-8" />',
        `<meta charset="UTF-8" />\n    <meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}" />`,
      );
    },
  };
}

export default defineConfig({
  // Relative base: the build works from any sub-path of any static host.
  base: './',
  plugins: [svelte(), contentSecurityPolicy(), docsPages(fileURLToPath(new URL('.', import.meta.url)))],
  worker: { format: 'es' },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
  build: { target: 'es2022', sourcemap: false },
});
