import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { docsPages } from './src/docs-site/docs-plugin.ts';

/**
 * The Content-Security-Policy of the built pages. Scripts, styles, workers and fetches come only
 * from the page's own origin, so untrusted traces and definitions cannot pull anything in or send
 * anything out. A meta CSP does not govern Web Workers started from a URL (they take the policy of
 * their own response), so `public/_headers` repeats it, with 'unsafe-eval' for those workers only:
 * the SES compartment that runs pipeline definitions evaluates their source. The analysis workers
 * are started from blob: URLs in sandboxed children of public/analysis-frame.html and inherit that
 * frame's policy instead ('unsafe-eval', connect-src 'none'), so the page itself never allows eval.
 * Only the page may reach a model endpoint (loopback origins); no worker may.
 */
export const PAGE_CSP = [
  "default-src 'self'",
  // 'wasm-unsafe-eval': the in-page model (src/app/model/in-page/) compiles llama.cpp's WebAssembly
  // in its worker, which takes this policy; it allows compiling WebAssembly only, never eval of text.
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  // The page's main thread talks to a model endpoint for model steps; loopback only (Ollama,
  // llama.cpp, vLLM on this machine). A hosted endpoint's origin is added by whoever deploys.
  "connect-src 'self' http://localhost:* http://127.0.0.1:*",
  // blob: for the in-page model's worker only: wllama starts it from a blob of its own bundled code
  // (no option gives it a URL), and it inherits this policy (no eval, connect-src as above).
  "worker-src 'self' blob:",
  // The analysis frame (public/analysis-frame.html), which starts the analysis workers in
  // sandboxed children of its own, under its own policy.
  "frame-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * Cross-origin isolation (also sent by public/_headers): the page, its analysis frame and the
 * frame's sandboxed children (allowed by their `allow="cross-origin-isolated"`) get shared memory,
 * so an analysis worker waits for each model response of a chain instead of restarting its case
 * per request (src/pool/page/wait-channel.ts; docs/replay.md, "Time"). Everything the page loads is
 * its own origin's; model endpoints are fetched with CORS, which COEP lets through.
 */
export const CROSS_ORIGIN_ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

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
  // Each worker is one self-contained classic script: the analysis worker is started from a
  // sandboxed frame's blob: URL (src/app/analysis/analysis-frame.ts), where a module worker could
  // neither load (Chromium refuses an opaque origin's blob: module) nor import other chunks
  // (cross-origin to the frame); 'iife' fails the build rather than split a worker into chunks.
  // Strict, as the modules it is built from are.
  worker: { format: 'iife', rolldownOptions: { output: { strict: true } } },
  server: { host: '127.0.0.1', port: 5173, headers: CROSS_ORIGIN_ISOLATION },
  preview: { host: '127.0.0.1', port: 4173, headers: CROSS_ORIGIN_ISOLATION },
  build: { target: 'es2022', sourcemap: false },
});
