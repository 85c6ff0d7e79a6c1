#!/usr/bin/env node
// Entry of `npm run blame`. Runs the command from a cached esbuild bundle (fast start), or
// through tsx when esbuild is missing, and exits with the command's status.
import { bundledEntry, projectRootFrom } from '../node/bundle-cache.mjs';

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
  process.stderr.write(`blame: internal error: ${e && e.stack ? e.stack : e}\n`);
  process.exitCode = 3;
}
