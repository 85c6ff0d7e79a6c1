#!/usr/bin/env node
// Entry of `npm run blame`. Runs the command from a cached esbuild bundle (fast start), or
// through tsx when esbuild is missing, and exits with the command's status.
import { bundledEntry, projectRootFrom } from '../pool/node/bundle-cache.mjs';

async function load() {
  const url = bundledEntry(projectRootFrom(import.meta.url), 'src/cli/main.ts', 'blame-cli');
  if (url) return import(url.href);
  const { register } = await import('tsx/esm/api');
  register();
  return import('./main.ts');
}

try {
  const { main } = await load();
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  // Escape control characters: the text may quote names from the user's files.
  const text = String(e && e.stack ? e.stack : e).replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);
  process.stderr.write(`blame: internal error: ${text}\n`);
  process.exitCode = 3;
}
