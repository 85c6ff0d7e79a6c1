#!/usr/bin/env node
// Entry of `npm run blame`. Runs the command from a cached esbuild bundle (fast start), or
// through tsx when esbuild is missing, and exits with the command's status.
import { bundledEntry, projectRootFrom } from '../pool/node/bundle-cache.mjs';
import { runCommand } from './run-command.mjs';

async function load() {
  const url = bundledEntry(projectRootFrom(import.meta.url), 'src/cli/main.ts', 'blame-cli');
  if (url) return import(url.href);
  const { register } = await import('tsx/esm/api');
  register();
  return import('./main.ts');
}

await runCommand(async () => (await load()).main(process.argv.slice(2)));
